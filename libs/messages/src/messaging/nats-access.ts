import { EVENTS_STREAM } from './subjects';
import type { DomainEventSubject, ServiceName } from './subjects';
import type { NamedAddressedSubject, NamedCommandSubject } from './command-map';
import { VoiceReplicaHeartbeat } from '../voice/voice-replicas';

/** Every process that connects to NATS: the services with commands of their own, and voice, the media plane. */
export type NatsService = ServiceName | 'voice';

/**
 * Which services send each command (RpcClient.request, health pings included). Each service's NATS user
 * may publish only the commands listed for it here (plus its own subjects), so a compromised process
 * cannot drive another service beyond what it already asks of it. The type makes every command appear;
 * a spec checks the apps' sources send nothing else.
 */
export const CommandSenders: {
  readonly [S in NamedCommandSubject | NamedAddressedSubject]: readonly NatsService[];
} = {
  // gateway
  'gateway.health.ping': [],
  // agents
  'agents.health.ping': ['gateway'],
  'agents.agent.create': ['gateway'],
  // campaigns: the project filter of the campaign list.
  'agents.agent.list': ['gateway', 'campaigns'],
  // calls and webhooks also through @vap/messaging's assertOwnAgent.
  'agents.agent.get': ['gateway', 'calls', 'campaigns', 'webhooks'],
  'agents.agent.update': ['gateway'],
  'agents.agent.delete': ['gateway'],
  'agents.project.create': ['gateway'],
  'agents.project.list': ['gateway'],
  'agents.project.get': ['gateway'],
  'agents.project.update': ['gateway'],
  'agents.project.delete': ['gateway'],
  'agents.dictionary.create': ['gateway'],
  'agents.dictionary.list': ['gateway'],
  'agents.dictionary.get': ['gateway'],
  'agents.dictionary.update': ['gateway'],
  'agents.dictionary.delete': ['gateway'],
  'agents.catalog_voice.add': ['gateway'],
  'agents.catalog_voice.update': ['gateway'],
  'agents.catalog_voice.retire': ['gateway'],
  'agents.catalog_voice.list': ['gateway'],
  'agents.voice.preview': ['gateway'],
  'agents.voice_configuration.list': ['gateway'],
  'agents.speech.plan': ['voice'],
  'agents.model.plan': ['voice', 'calls'],
  'agents.model.list': ['gateway'],
  'agents.provider_credential.create': ['gateway'],
  'agents.provider_credential.list': ['gateway'],
  'agents.provider_credential.get': ['gateway'],
  'agents.provider_credential.rotate': ['gateway'],
  'agents.provider_credential.update': ['gateway'],
  'agents.provider_credential.delete': ['gateway'],
  'agents.voice.list': ['gateway'],
  'agents.background_audio.list': ['gateway'],
  'agents.extraction_set.create': ['gateway'],
  'agents.extraction_set.list': ['gateway'],
  'agents.extraction_set.get': ['gateway'],
  'agents.extraction_set.update': ['gateway'],
  'agents.extraction_set.delete': ['gateway'],
  'agents.extraction_set.attach': ['gateway'],
  'agents.extraction_set.detach': ['gateway'],
  'agents.extraction_set.from_agent': ['gateway'],
  'agents.extraction.effective_schema': ['calls'],
  'agents.document.create': ['gateway'],
  'agents.document.create_web_link': ['gateway'],
  'agents.document.confirm': ['gateway'],
  'agents.document.list': ['gateway'],
  'agents.document.get': ['gateway'],
  'agents.document.delete': ['gateway'],
  'agents.agent_document.link': ['gateway'],
  'agents.agent_document.unlink': ['gateway'],
  'agents.agent_document.list': ['gateway'],
  'agents.knowledge.search': ['gateway', 'voice'],
  'agents.custom_function.invoke': ['voice'],
  'agents.integration_log.list': ['gateway'],
  'agents.integration_log.get': ['gateway'],
  'agents.custom_function.create': ['gateway'],
  'agents.custom_function.list': ['gateway'],
  'agents.custom_function.get': ['gateway'],
  'agents.custom_function.update': ['gateway'],
  'agents.custom_function.delete': ['gateway'],
  'agents.custom_function.rotate_secret': ['gateway'],
  'agents.custom_function.test': ['gateway'],
  'agents.custom_function.attach': ['gateway'],
  'agents.custom_function.detach': ['gateway'],
  'agents.connector.create': ['gateway'],
  'agents.connector.list': ['gateway'],
  'agents.connector.get': ['gateway'],
  'agents.connector.update': ['gateway'],
  'agents.connector.delete': ['gateway'],
  'agents.connection.create': ['gateway'],
  'agents.connection.list': ['gateway'],
  'agents.connection.delete': ['gateway'],
  'agents.connect.open': ['gateway'],
  'agents.connect.submit_key': ['gateway'],
  'agents.connect.callback': ['gateway'],
  'agents.agent.for_call': ['calls'],
  'agents.agent.tools': ['gateway'],
  // calls
  'calls.health.ping': ['gateway'],
  'calls.call.start': ['gateway', 'campaigns'],
  'calls.call.get': ['gateway'],
  'calls.call.list': ['gateway', 'campaigns'],
  'calls.call.recording_url': ['gateway'],
  'calls.browser_session.create': ['gateway'],
  // campaigns: the test runner reads its sessions (test runs).
  'calls.browser_session.get': ['gateway', 'campaigns'],
  'calls.browser_session.list': ['gateway'],
  'calls.test_session.create': ['campaigns'],
  'calls.callback.ingest': ['gateway'],
  'calls.billing.unbilled': ['gateway'],
  'calls.billing.acknowledge': ['gateway'],
  'calls.telephony.carrier_a_put': ['gateway'],
  'calls.telephony.carrier_b_put': ['gateway'],
  'calls.telephony.list': ['gateway'],
  'calls.telephony_connection.list': ['gateway'],
  'calls.telephony_connection.get': ['gateway'],
  'calls.telephony_connection.update': ['gateway'],
  'calls.telephony_connection.delete': ['gateway'],
  'calls.telephony_connection.test': ['gateway'],
  'calls.reseller_link.connection_create': ['gateway'],
  'calls.reseller_link.connection_deactivate': ['gateway'],
  'calls.reseller_link.call_routing': ['gateway'],
  'calls.phone_number.import': ['gateway'],
  'calls.phone_number.list': ['gateway', 'campaigns'],
  'calls.phone_number.get': ['gateway', 'campaigns'],
  'calls.phone_number.update': ['gateway'],
  'calls.phone_number.delete': ['gateway'],
  'calls.do_not_call.create': ['gateway'],
  'calls.do_not_call.list': ['gateway'],
  'calls.do_not_call.get': ['gateway'],
  'calls.do_not_call.update': ['gateway'],
  'calls.do_not_call.delete': ['gateway'],
  'calls.do_not_call.lookup': ['gateway'],
  'calls.do_not_call.import': ['gateway'],
  'calls.do_not_call.export_page': ['gateway'],
  'calls.policy_decision.list': ['gateway'],
  'calls.contact_policy.settings_get': ['gateway'],
  'calls.contact_policy.settings_update': ['gateway'],
  'calls.inbound_policy.create': ['gateway'],
  'calls.inbound_policy.list': ['gateway'],
  'calls.inbound_policy.get': ['gateway'],
  'calls.inbound_policy.update': ['gateway'],
  'calls.inbound_policy.delete': ['gateway'],
  'calls.inbound_decision.list': ['gateway'],
  'calls.lifecycle_hook.create': ['gateway'],
  'calls.lifecycle_hook.list': ['gateway'],
  'calls.lifecycle_hook.get': ['gateway'],
  'calls.lifecycle_hook.update': ['gateway'],
  'calls.lifecycle_hook.delete': ['gateway'],
  'calls.lifecycle_hook.rotate_secret': ['gateway'],
  'calls.sandbox.inbound_call': ['gateway'],
  'calls.inbound_callback.ingest': ['gateway'],
  'calls.message.send': ['gateway'],
  'calls.message.list': ['gateway'],
  'calls.message.get': ['gateway'],
  'calls.message_policy.get': ['gateway'],
  'calls.message_policy.update': ['gateway'],
  'calls.message_callback.ingest': ['gateway'],
  'calls.inbound_message.ingest': ['gateway'],
  'calls.sandbox.inbound_message': ['gateway'],
  'calls.voice.attach': ['voice'],
  'calls.voice.transcript': ['voice'],
  'calls.voice.transfer': ['voice'],
  'calls.voice.warm_transfer': ['voice'],
  'calls.voice.transfer_decision': ['voice'],
  'calls.voice.handoff': ['voice'],
  'calls.voice.hangup': ['voice'],
  'calls.voice.opt_out': ['voice'],
  'calls.voice.send_dtmf': ['voice'],
  'calls.voice.send_sms': ['voice'],
  'calls.voice.ended': ['voice'],
  'calls.voice.tool_call': ['voice'],
  'calls.voice.browser_refused': ['voice'],
  // campaigns
  'campaigns.health.ping': ['gateway'],
  'campaigns.campaign.create': ['gateway'],
  'campaigns.campaign.list': ['gateway'],
  'campaigns.campaign.get': ['gateway'],
  'campaigns.campaign.update': ['gateway'],
  'campaigns.campaign.delete': ['gateway'],
  'campaigns.campaign.start': ['gateway'],
  'campaigns.campaign.pause': ['gateway'],
  'campaigns.campaign.resume': ['gateway'],
  'campaigns.contact.add': ['gateway'],
  'campaigns.contact.list': ['gateway'],
  'campaigns.test_scenario.create': ['gateway'],
  'campaigns.test_scenario.list': ['gateway'],
  'campaigns.test_scenario.get': ['gateway'],
  'campaigns.test_scenario.update': ['gateway'],
  'campaigns.test_scenario.delete': ['gateway'],
  'campaigns.test_run.create': ['gateway'],
  'campaigns.test_run.list': ['gateway'],
  'campaigns.test_run.get': ['gateway'],
  // webhooks
  'webhooks.health.ping': ['gateway'],
  'webhooks.endpoint.create': ['gateway'],
  'webhooks.endpoint.list': ['gateway'],
  'webhooks.endpoint.update': ['gateway'],
  'webhooks.endpoint.delete': ['gateway'],
  'webhooks.endpoint.rotate_secret': ['gateway'],
  'webhooks.endpoint.test': ['gateway'],
  'webhooks.legacy_endpoint.put': ['gateway'],
  'webhooks.agent_webhooks.get': ['gateway'],
  'webhooks.agent_webhooks.create': ['gateway'],
  'webhooks.agent_webhooks.update': ['gateway'],
  'webhooks.agent_flag.set': ['agents'],
  'webhooks.delivery.list': ['gateway'],
  'webhooks.delivery.get': ['gateway'],
  'webhooks.delivery.retry': ['gateway'],
  // voice
  'voice.session.end': ['calls'],
  'voice.session.answered_by': ['calls'],
  'voice.session.transfer_outcome': ['calls'],
  'voice.session.terminate': ['calls'],
};

/**
 * The service whose outbox records each domain event: only its NATS user may publish the event's subject
 * (the stream's subjects are `events.>`, so the publish permission is what keeps one service from
 * forging another's events). The type makes every event appear exactly once.
 */
export const EventRecorders: { readonly [S in DomainEventSubject]: ServiceName } = {
  'events.partner.created': 'gateway',
  'events.partner.updated': 'gateway',
  'events.customer.created': 'gateway',
  'events.customer.updated': 'gateway',
  'events.agent.created': 'agents',
  'events.agent.updated': 'agents',
  'events.agent.deleted': 'agents',
  'events.document.created': 'agents',
  'events.document.ready': 'agents',
  'events.document.deleted': 'agents',
  'events.agent_document.linked': 'agents',
  'events.agent_document.unlinked': 'agents',
  'events.agent_document.indexed': 'agents',
  'events.call.status_updated': 'calls',
  'events.session.completed': 'calls',
  'events.call.transferred': 'calls',
  'events.telephony_connection.updated': 'calls',
  'events.phone_number.imported': 'calls',
  'events.phone_number.updated': 'calls',
  'events.phone_number.deleted': 'calls',
  'events.inbound_route.decided': 'calls',
  'events.contact_policy.settings_updated': 'calls',
  'events.message.status_updated': 'calls',
  'events.message.received': 'calls',
  'events.customer_connection.updated': 'agents',
  'events.campaign.status_updated': 'campaigns',
  'events.agent_webhooks.flag_changed': 'webhooks',
  'events.integration.request_logged': 'calls',
};

/**
 * Events a service also reads as plain NATS messages, outside JetStream, on every replica: the gateway drops a
 * partner's cached API keys the moment the partner changes, and pushes a call's changes to the console's live
 * views open on it.
 */
export const CoreEventSubscriptions: { readonly [S in NatsService]?: readonly DomainEventSubject[] } = {
  gateway: [
    'events.partner.updated',
    'events.call.status_updated',
    'events.call.transferred',
    'events.session.completed',
  ],
};

/**
 * JetStream key-value buckets (names before the deployment's subject prefix) and the services that open them:
 * each may read the bucket and create it (all open it with the same settings, so whichever comes first makes
 * it); only its writers may put and delete. Nothing else of JetStream is given to voice.
 */
export const KvBucketUsers: {
  readonly [bucket: string]: {
    readonly writers: readonly NatsService[];
    readonly readers: readonly NatsService[];
  };
} = {
  // Voice replicas beat; the calls service ends the calls of a replica that stopped beating.
  [VoiceReplicaHeartbeat.bucket]: { writers: ['voice'], readers: ['calls'] },
};

/** Every key-value bucket a deployment uses, by its name before the subject prefix. */
export const KV_BUCKETS: readonly string[] = Object.keys(KvBucketUsers);

/** The event stream's name under a subject prefix. */
export function eventStreamName(subjectPrefix = ''): string {
  return subjectPrefix ? `${subjectPrefix}_${EVENTS_STREAM}` : EVENTS_STREAM;
}

/** A key-value bucket's name under a subject prefix (as HeartbeatBucket names it). */
export function kvBucketName(bucket: string, subjectPrefix = ''): string {
  return subjectPrefix ? `${subjectPrefix}_${bucket}` : bucket;
}

/** The JetStream stream that holds a key-value bucket (nats.js keeps bucket `b` in stream `KV_b`). */
export function kvStreamName(bucket: string, subjectPrefix = ''): string {
  return `KV_${kvBucketName(bucket, subjectPrefix)}`;
}
