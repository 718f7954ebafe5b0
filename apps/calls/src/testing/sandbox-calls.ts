// The calls service as the media-session specs start it: its carrier the fake sandbox carrier, its calls live
// sandbox calls of a partner each spec makes up (so the tests of one file share the app, not their rows).
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AgentSnapshot } from '@vap/messages';
import {
  IntegrationApp,
  IntegrationAppOptions,
  useIntegrationApp,
  UseIntegrationAppOptions,
} from '@vap/testing/integration';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { saveCall, saveConnection } from './call-rows';
import { startCalls } from './calls-integration';
import { FakeSandboxCarrier, SANDBOX_TOKEN } from './fake-sandbox-carrier';

export async function startCallsOnSandbox(
  carrier: FakeSandboxCarrier,
  options: IntegrationAppOptions = {},
): Promise<IntegrationApp<CallsConfig>> {
  return startCalls({
    ...options,
    env: { SANDBOX_CARRIER_URL: await carrier.listen(), SANDBOX_AUTH_TOKEN: SANDBOX_TOKEN, ...options.env },
  });
}

/**
 * The calls service on `carrier` for a spec file's tests (useIntegrationApp): started before them, stopped after
 * them, and the carrier closed once it has stopped.
 */
export function useCallsOnSandbox(
  carrier: FakeSandboxCarrier,
  options: IntegrationAppOptions = {},
  hooks: Pick<UseIntegrationAppOptions, 'beforeStop'> = {},
): IntegrationApp<CallsConfig> {
  return useIntegrationApp(() => startCallsOnSandbox(carrier, options), {
    ...hooks,
    afterStop: () => carrier.close(),
  });
}

/** A sandbox call in progress, of a new partner unless `fields` names one. */
export async function saveSandboxCall(
  dataSource: DataSource,
  fields: Partial<Call> = {},
  session: Pick<Partial<CallSession>, 'mediaStream' | 'voiceReplicaId'> = {},
): Promise<Call> {
  const partnerId = fields.partnerId ?? randomUUID();
  // A partner has one sandbox connection.
  const existing = await dataSource.getRepository(Connection).findOneBy({ partnerId, provider: 'sandbox' });
  const connectionId =
    fields.connectionId ?? existing?.id ?? (await saveConnection(dataSource, partnerId, 'sandbox'));
  return saveCall(dataSource, { ...fields, partnerId, connectionId, provider: 'sandbox' }, session);
}

/** The call's row and its session's, as stored. */
export async function storedCall(
  dataSource: DataSource,
  id: string,
): Promise<{ call: Call; session: CallSession }> {
  const call = await dataSource.getRepository(Call).findOneByOrFail({ id });
  const session = await dataSource.getRepository(CallSession).findOneByOrFail({ callId: id });
  return { call, session };
}

/** Replaces the agent settings the call copied at its start (what an agent with other settings would give it). */
export async function saveAgentSettings(
  dataSource: DataSource,
  callId: string,
  settings: AgentSnapshot,
): Promise<void> {
  await dataSource.query(`UPDATE calls.calls SET agent_settings = $2::jsonb WHERE id = $1`, [
    callId,
    JSON.stringify(settings),
  ]);
}
