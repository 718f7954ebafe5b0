/**
 * Command subjects: `<service>.<resource>.<verb>`, request/reply, one queue group per service.
 * Domain events: `events.<aggregate>.<event>` on the JetStream stream EVENTS.
 * A deployment-wide prefix (NATS_SUBJECT_PREFIX) is applied by the messaging lib, never here.
 */
export const Subjects = {
  gateway: {
    ping: 'gateway.health.ping',
  },
  agents: {
    ping: 'agents.health.ping',
    agentCreate: 'agents.agent.create',
    agentList: 'agents.agent.list',
    /** Also the internal way to check that an agent exists for a partner (404 NOT_FOUND when not). */
    agentGet: 'agents.agent.get',
    agentUpdate: 'agents.agent.update',
    agentDelete: 'agents.agent.delete',
    voiceConfigurationList: 'agents.voice_configuration.list',
    agentVoiceList: 'agents.voice.list',
    /** The speech a call runs with (SpeechPlanRequest -> SpeechPlan), asked by voice when the media starts. */
    speechPlan: 'agents.speech.plan',
    /** The models a call runs with (ModelPlanRequest -> ModelPlan), asked by voice, calls and campaigns. */
    modelPlan: 'agents.model.plan',
    /** GET /models: the model catalog as the account can use it. */
    modelList: 'agents.model.list',
    backgroundAudioList: 'agents.background_audio.list',
    extractionSetCreate: 'agents.extraction_set.create',
    extractionSetList: 'agents.extraction_set.list',
    extractionSetGet: 'agents.extraction_set.get',
    extractionSetUpdate: 'agents.extraction_set.update',
    extractionSetDelete: 'agents.extraction_set.delete',
    extractionSetAttach: 'agents.extraction_set.attach',
    extractionSetDetach: 'agents.extraction_set.detach',
    extractionSetFromAgent: 'agents.extraction_set.from_agent',
    /** Set keys + inline keys of an agent, for post-call extraction. */
    extractionEffectiveSchema: 'agents.extraction.effective_schema',
    documentCreate: 'agents.document.create',
    documentCreateWebLink: 'agents.document.create_web_link',
    documentConfirm: 'agents.document.confirm',
    documentList: 'agents.document.list',
    documentGet: 'agents.document.get',
    documentDelete: 'agents.document.delete',
    agentDocumentLink: 'agents.agent_document.link',
    agentDocumentUnlink: 'agents.agent_document.unlink',
    agentDocumentList: 'agents.agent_document.list',
    /** Ranked knowledge-base chunks for an agent ({ agentId, query, limit }), for calls and for partners. */
    knowledgeSearch: 'agents.knowledge.search',
    /** Runs a partner's custom function for a call (CustomFunctionInvokeRequest); the agents service makes the request. */
    customFunctionInvoke: 'agents.custom_function.invoke',
    /** A partner's integration log, newest first (ListIntegrationLogsQueryDto). */
    integrationLogList: 'agents.integration_log.list',
    /** One integration log entry with its excerpts ({ id }: the entry's UUID). */
    integrationLogGet: 'agents.integration_log.get',
    customFunctionCreate: 'agents.custom_function.create',
    customFunctionList: 'agents.custom_function.list',
    customFunctionGet: 'agents.custom_function.get',
    customFunctionUpdate: 'agents.custom_function.update',
    customFunctionDelete: 'agents.custom_function.delete',
    customFunctionRotateSecret: 'agents.custom_function.rotate_secret',
    /** POST /custom-functions/{id}/test: one request to the partner with sample arguments, outside any call. */
    customFunctionTest: 'agents.custom_function.test',
    customFunctionAttach: 'agents.custom_function.attach',
    customFunctionDetach: 'agents.custom_function.detach',
    /** Connectors (/connectors): kinds of external account an account's customers connect. */
    connectorCreate: 'agents.connector.create',
    connectorList: 'agents.connector.list',
    connectorGet: 'agents.connector.get',
    connectorUpdate: 'agents.connector.update',
    connectorDelete: 'agents.connector.delete',
    /** A customer's connections (/customers/{id}/connections); the gateway has checked the customer is the account's. */
    connectionCreate: 'agents.connection.create',
    connectionList: 'agents.connection.list',
    connectionDelete: 'agents.connection.delete',
    /** The hosted connect pages (no partner: the link's token or the callback's state names the connection). */
    connectOpen: 'agents.connect.open',
    connectSubmitKey: 'agents.connect.submit_key',
    connectCallback: 'agents.connect.callback',
    /** The agent record and what a call copies of the agent beyond it (its functions' specs), when a call starts. */
    agentForCall: 'agents.agent.for_call',
    /** GET /agent/{id}/tools: what a call of the agent starting now offers its model (from the agent tool catalog). */
    agentTools: 'agents.agent.tools',
    projectCreate: 'agents.project.create',
    projectList: 'agents.project.list',
    projectGet: 'agents.project.get',
    projectUpdate: 'agents.project.update',
    projectDelete: 'agents.project.delete',
    /** An account's speech provider keys (/provider-credentials): checked live, sealed, never returned. */
    providerCredentialCreate: 'agents.provider_credential.create',
    providerCredentialList: 'agents.provider_credential.list',
    providerCredentialGet: 'agents.provider_credential.get',
    providerCredentialRotate: 'agents.provider_credential.rotate',
    providerCredentialUpdate: 'agents.provider_credential.update',
    providerCredentialDelete: 'agents.provider_credential.delete',
    dictionaryCreate: 'agents.dictionary.create',
    dictionaryList: 'agents.dictionary.list',
    dictionaryGet: 'agents.dictionary.get',
    dictionaryUpdate: 'agents.dictionary.update',
    dictionaryDelete: 'agents.dictionary.delete',
    /** The operator's catalog management (no partner): add, change, retire and list every voice. */
    catalogVoiceAdd: 'agents.catalog_voice.add',
    catalogVoiceUpdate: 'agents.catalog_voice.update',
    catalogVoiceRetire: 'agents.catalog_voice.retire',
    catalogVoiceList: 'agents.catalog_voice.list',
    /** A catalog voice saying its preview text, as a WAV (base64), for a partner entitled to it. */
    voicePreview: 'agents.voice.preview',
  },
  calls: {
    ping: 'calls.health.ping',
    callStart: 'calls.call.start',
    callGet: 'calls.call.get',
    callList: 'calls.call.list',
    callRecordingUrl: 'calls.call.recording_url',
    browserSessionCreate: 'calls.browser_session.create',
    browserSessionGet: 'calls.browser_session.get',
    browserSessionList: 'calls.browser_session.list',
    /** A browser session for a test run's attempt (the campaigns service's test runner): billed at the test rate. */
    testSessionCreate: 'calls.test_session.create',
    /** A carrier callback forwarded verbatim by the gateway (CarrierCallbackIngest). */
    callbackIngest: 'calls.callback.ingest',
    /** A partner's ended calls whose charge the gateway has not acknowledged yet (UnbilledChargesRequest). */
    billingUnbilled: 'calls.billing.unbilled',
    /** The gateway has debited these calls (AcknowledgeChargesRequest); they leave the unbilled list. */
    billingAcknowledge: 'calls.billing.acknowledge',
    // Telephony: carrier credentials, phone numbers, inbound routing, reseller link.
    telephonyCarrierAPut: 'calls.telephony.carrier_a_put',
    telephonyCarrierBPut: 'calls.telephony.carrier_b_put',
    telephonyList: 'calls.telephony.list',
    telephonyConnectionList: 'calls.telephony_connection.list',
    telephonyConnectionGet: 'calls.telephony_connection.get',
    telephonyConnectionUpdate: 'calls.telephony_connection.update',
    telephonyConnectionDelete: 'calls.telephony_connection.delete',
    /** A connection test: one read of the carrier account (never a call). */
    telephonyConnectionTest: 'calls.telephony_connection.test',
    /** Operator command: { partnerId in the request, data: CreateResellerLinkConnectionDto }. */
    resellerLinkConnectionCreate: 'calls.reseller_link.connection_create',
    resellerLinkConnectionDeactivate: 'calls.reseller_link.connection_deactivate',
    resellerLinkCallRouting: 'calls.reseller_link.call_routing',
    phoneNumberImport: 'calls.phone_number.import',
    phoneNumberList: 'calls.phone_number.list',
    phoneNumberGet: 'calls.phone_number.get',
    phoneNumberUpdate: 'calls.phone_number.update',
    phoneNumberDelete: 'calls.phone_number.delete',
    // Contact policy: the do-not-call list and the log of dials it stopped.
    doNotCallCreate: 'calls.do_not_call.create',
    doNotCallList: 'calls.do_not_call.list',
    doNotCallGet: 'calls.do_not_call.get',
    doNotCallUpdate: 'calls.do_not_call.update',
    doNotCallDelete: 'calls.do_not_call.delete',
    doNotCallLookup: 'calls.do_not_call.lookup',
    doNotCallImport: 'calls.do_not_call.import',
    doNotCallExportPage: 'calls.do_not_call.export_page',
    policyDecisionList: 'calls.policy_decision.list',
    contactPolicySettingsGet: 'calls.contact_policy.settings_get',
    contactPolicySettingsUpdate: 'calls.contact_policy.settings_update',
    inboundPolicyCreate: 'calls.inbound_policy.create',
    inboundPolicyList: 'calls.inbound_policy.list',
    inboundPolicyGet: 'calls.inbound_policy.get',
    inboundPolicyUpdate: 'calls.inbound_policy.update',
    inboundPolicyDelete: 'calls.inbound_policy.delete',
    inboundDecisionList: 'calls.inbound_decision.list',
    // Lifecycle hooks: the partner's pre-call and post-call URLs, which the calls service runs.
    lifecycleHookCreate: 'calls.lifecycle_hook.create',
    lifecycleHookList: 'calls.lifecycle_hook.list',
    lifecycleHookGet: 'calls.lifecycle_hook.get',
    lifecycleHookUpdate: 'calls.lifecycle_hook.update',
    lifecycleHookDelete: 'calls.lifecycle_hook.delete',
    lifecycleHookRotateSecret: 'calls.lifecycle_hook.rotate_secret',
    // Messaging: SMS on the account's carrier connections.
    messageSend: 'calls.message.send',
    messageList: 'calls.message.list',
    messageGet: 'calls.message.get',
    /** The account's SMS destination policy and caps (GET and PATCH /messages/policy). */
    messagePolicyGet: 'calls.message_policy.get',
    messagePolicyUpdate: 'calls.message_policy.update',
    /** A carrier's delivery status callback of a message (CarrierCallbackIngest, callId = the message's id). */
    messageCallbackIngest: 'calls.message_callback.ingest',
    /** A carrier's inbound-SMS webhook (CarrierCallbackIngest, callId = connection id). */
    inboundMessageIngest: 'calls.inbound_message.ingest',
    /** A simulated inbound SMS on the sandbox carrier, delivered like a real one. */
    sandboxInboundMessage: 'calls.sandbox.inbound_message',
    /** A simulated inbound call on the sandbox carrier, routed like a real one. */
    sandboxInboundCall: 'calls.sandbox.inbound_call',
    /** A carrier's inbound-call webhook forwarded verbatim by the gateway (CarrierCallbackIngest, callId = connection id). */
    inboundCallbackIngest: 'calls.inbound_callback.ingest',
    // The media plane (voice service) reports a live conversation to the owner of the call.
    voiceAttach: 'calls.voice.attach',
    voiceTranscript: 'calls.voice.transcript',
    voiceTransfer: 'calls.voice.transfer',
    /** A warm transfer: the human's leg is dialed and briefed before the caller is bridged (VoiceWarmTransferRequest). */
    voiceWarmTransfer: 'calls.voice.warm_transfer',
    /** The human heard the briefing and accepted or declined (VoiceTransferDecisionRequest). */
    voiceTransferDecision: 'calls.voice.transfer_decision',
    voiceHandoff: 'calls.voice.handoff',
    voiceHangup: 'calls.voice.hangup',
    voiceOptOut: 'calls.voice.opt_out',
    voiceSendDtmf: 'calls.voice.send_dtmf',
    /** The agent's send_sms tool during a call (VoiceSendSmsRequest). */
    voiceSendSms: 'calls.voice.send_sms',
    voiceEnded: 'calls.voice.ended',
    voiceToolCall: 'calls.voice.tool_call',
    /** A browser stream refused before its attach (expired token, full replica): the session records it. */
    voiceBrowserRefused: 'calls.voice.browser_refused',
  },
  campaigns: {
    ping: 'campaigns.health.ping',
    campaignCreate: 'campaigns.campaign.create',
    campaignList: 'campaigns.campaign.list',
    campaignGet: 'campaigns.campaign.get',
    campaignUpdate: 'campaigns.campaign.update',
    campaignDelete: 'campaigns.campaign.delete',
    campaignStart: 'campaigns.campaign.start',
    campaignPause: 'campaigns.campaign.pause',
    campaignResume: 'campaigns.campaign.resume',
    /** AddContactsBatch: one batch of an upload's valid rows; answers their per-row report. */
    contactsAdd: 'campaigns.contact.add',
    contactsList: 'campaigns.contact.list',
    testScenarioCreate: 'campaigns.test_scenario.create',
    testScenarioList: 'campaigns.test_scenario.list',
    testScenarioGet: 'campaigns.test_scenario.get',
    testScenarioUpdate: 'campaigns.test_scenario.update',
    testScenarioDelete: 'campaigns.test_scenario.delete',
    /** Queues a run of scenarios against an agent; the campaigns service's test runner plays them. */
    testRunCreate: 'campaigns.test_run.create',
    testRunList: 'campaigns.test_run.list',
    testRunGet: 'campaigns.test_run.get',
  },
  webhooks: {
    ping: 'webhooks.health.ping',
    endpointCreate: 'webhooks.endpoint.create',
    endpointList: 'webhooks.endpoint.list',
    endpointUpdate: 'webhooks.endpoint.update',
    endpointDelete: 'webhooks.endpoint.delete',
    endpointRotateSecret: 'webhooks.endpoint.rotate_secret',
    /** Queues a webhook.test delivery to one endpoint. */
    endpointTest: 'webhooks.endpoint.test',
    /** PUT /config/webhook: creates or replaces the reserved `default` endpoint. */
    legacyEndpointPut: 'webhooks.legacy_endpoint.put',
    agentWebhooksGet: 'webhooks.agent_webhooks.get',
    agentWebhooksCreate: 'webhooks.agent_webhooks.create',
    agentWebhooksUpdate: 'webhooks.agent_webhooks.update',
    /**
     * Sets an agent's fan-out flag for the agents service (PUT /agent/{id}), which has checked the agent:
     * { agentId, includeAccountEndpoints } answered with the stored value; 409 NO_AGENT_ENDPOINT.
     */
    agentFlagSet: 'webhooks.agent_flag.set',
    deliveryList: 'webhooks.delivery.list',
    deliveryGet: 'webhooks.delivery.get',
    deliveryRetry: 'webhooks.delivery.retry',
  },
} as const;

/**
 * Addressed commands: sent to `<subject>.<address>` and answered only by the process holding what the
 * address names (a plain subscription, no queue group), so a request nobody holds gets no responders.
 */
export const AddressedSubjects = {
  voice: {
    /** To the voice replica holding a call's media session, addressed by call id (VoiceSessionEndRequest). */
    sessionEnd: 'voice.session.end',
    /** To the same replica: the carrier's machine detection answered after the stream opened (VoiceAnsweredByRequest). */
    answeredBy: 'voice.session.answered_by',
    /** To the same replica: the call has ended, the session stops at once (VoiceSessionTerminateRequest). */
    sessionTerminate: 'voice.session.terminate',
    /** To the same replica: how a warm transfer of its call ended (VoiceTransferOutcomeRequest). */
    transferOutcome: 'voice.session.transfer_outcome',
  },
} as const;

export type ServiceName = keyof typeof Subjects;
export const SERVICE_NAMES = Object.keys(Subjects) as ServiceName[];

export const EVENTS_STREAM = 'EVENTS';
export const EVENT_SUBJECT_ROOT = 'events';

/** Domain event types and their subjects (relative to the prefix). */
export const DomainEvents = {
  partnerCreated: 'events.partner.created',
  partnerUpdated: 'events.partner.updated',
  customerCreated: 'events.customer.created',
  customerUpdated: 'events.customer.updated',
  agentCreated: 'events.agent.created',
  agentUpdated: 'events.agent.updated',
  agentDeleted: 'events.agent.deleted',
  documentCreated: 'events.document.created',
  documentReady: 'events.document.ready',
  documentDeleted: 'events.document.deleted',
  agentDocumentLinked: 'events.agent_document.linked',
  agentDocumentUnlinked: 'events.agent_document.unlinked',
  /** The link's index_status moved to indexed or failed. */
  agentDocumentIndexed: 'events.agent_document.indexed',
  /** A call's status changed (data: CallStatusUpdatedData). */
  callStatusUpdated: 'events.call.status_updated',
  /** Post-call processing finished, or the call failed terminally (data: SessionCompletedData). */
  sessionCompleted: 'events.session.completed',
  /** A live call was transferred to a human (data: CallTransferredData). */
  callTransferred: 'events.call.transferred',
  telephonyConnectionUpdated: 'events.telephony_connection.updated',
  phoneNumberImported: 'events.phone_number.imported',
  phoneNumberUpdated: 'events.phone_number.updated',
  phoneNumberDeleted: 'events.phone_number.deleted',
  /** An inbound call's routing decision was recorded (InboundRouteDecisionDto). */
  inboundRouteDecided: 'events.inbound_route.decided',
  /** A campaign's status changed (data: CampaignStatusUpdatedData). */
  campaignStatusUpdated: 'events.campaign.status_updated',
  /** A message's delivery status changed (data: MessageDto). */
  messageStatusUpdated: 'events.message.status_updated',
  /** An SMS arrived on one of the account's numbers (data: MessageDto, direction inbound). */
  messageReceived: 'events.message.received',
  /** A customer's connection became connected, revoked or disconnected (data: CustomerConnectionUpdatedEvent). */
  customerConnectionUpdated: 'events.customer_connection.updated',
  /** The account's calling window or frequency caps changed (data: ContactPolicySettingsDto). */
  contactPolicySettingsUpdated: 'events.contact_policy.settings_updated',
  /** An agent's webhooks_include_account_endpoints changed, set or flipped back (AgentWebhookFlagChangedEvent). */
  agentWebhookFlagChanged: 'events.agent_webhooks.flag_changed',
  /** A request to a partner's systems made by a service other than agents, for the integration log (IntegrationLogEntry). */
  integrationRequestLogged: 'events.integration.request_logged',
} as const;
export type DomainEventSubject = (typeof DomainEvents)[keyof typeof DomainEvents];

/** The shape of every domain event on the stream. */
export interface DomainEvent<T = unknown> {
  id: string;
  subject: string;
  partnerId: string | null;
  occurredAt: string;
  requestId?: string;
  data: T;
}
