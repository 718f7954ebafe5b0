// Rows the calls service's specs build their cases from, saved through the entities (not built into the app).
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AGENT_SNAPSHOT_VERSION, AgentDefaults, AgentForCall, AgentSnapshot } from '@vap/messages';
import { Call, newCall } from '../calls/entities/call.entity';
import { CallSession, newSession } from '../calls/entities/call-session.entity';
import { Connection } from '../telephony/connections/entities/connection.entity';

/**
 * The agent the specs' calls run, as the agents service would answer it: its id and name, and a snapshot with no
 * knowledge, functions, handoffs or speech and model choices (the settings a spec does not set stay absent).
 */
const SPEC_AGENT: AgentForCall = {
  id: 'a0000000-0000-4000-8000-00000000a9e7',
  name: 'Support',
  projectId: 'c0000000-0000-4000-8000-00000000a9e7',
  snapshot: {
    version: AGENT_SNAPSHOT_VERSION,
    toolAckConfig: null,
    tools: null,
    hasKnowledge: false,
    handoffs: [],
    transfer: {
      mode: 'cold',
      briefingInstructions: null,
      ringTimeoutSecs: AgentDefaults.transferRingTimeoutSecs,
    },
    customFunctions: [],
    fallbackVoiceIds: [],
    transcriber: null,
    fallbackTranscriber: null,
    dictionaryIds: [],
    model: null,
    fallbackModels: [],
  } as Partial<AgentSnapshot> as AgentSnapshot,
};

/** An active connection of the partner on `provider`; answers its id. */
export async function saveConnection(
  dataSource: DataSource,
  partnerId: string,
  provider: Connection['provider'],
): Promise<string> {
  const id = randomUUID();
  await dataSource
    .getRepository(Connection)
    .insert({ id, partnerId, provider, name: provider, status: 'active' });
  return id;
}

/**
 * A call with its session: an outbound call answered at `startedAt` (now unless given) and still in progress,
 * nothing decided or measured; `fields` set the rest, `session` the session's media stream.
 */
export async function saveCall(
  dataSource: DataSource,
  fields: Pick<Call, 'partnerId' | 'connectionId' | 'provider'> & Partial<Call>,
  session: Pick<Partial<CallSession>, 'mediaStream' | 'voiceReplicaId'> = {},
): Promise<Call> {
  const startedAt = fields.startedAt ?? new Date();
  // The row a placed call starts as (newCall), answered by a person and in progress since startedAt.
  const call = dataSource.getRepository(Call).create({
    ...newCall(SPEC_AGENT, {
      partnerId: fields.partnerId,
      direction: 'outbound',
      fromNumber: '+15550000001',
      toNumber: '+15550000002',
      phoneNumberId: null,
      connectionId: fields.connectionId,
      provider: fields.provider,
      providerCallId: `CA${randomBytes(8).toString('hex')}`,
      clientReferenceId: null,
      variables: {},
      concurrencyLimit: 5,
      providerStatus: null,
      providerEvent: null,
    }),
    carrierLegId: null,
    status: 'in_progress',
    answeredBy: 'human',
    ...fields,
    startedAt,
  });
  await dataSource.getRepository(Call).save(call);
  await dataSource.getRepository(CallSession).insert({ ...newSession(call), startedAt, ...session });
  return call;
}
