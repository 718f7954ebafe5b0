// Live sandbox calls whose agent transfers warm to one number, for the specs of the warm-transfer commands.
import { DataSource } from 'typeorm';
import { Call } from '../calls/entities/call.entity';
import { saveAgentSettings, saveSandboxCall } from './sandbox-calls';

/** The agent's transfer_number in these specs. */
export const TRANSFER_HUMAN = '+14155550123';

export async function saveWarmTransferCall(
  dataSource: DataSource,
  fields: Partial<Call> = {},
  mode: 'warm' | 'warm_handback' | 'cold' = 'warm',
): Promise<Call> {
  const call = await saveSandboxCall(dataSource, fields);
  call.agentSettings = {
    ...call.agentSettings,
    transferEnabled: true,
    transferNumber: TRANSFER_HUMAN,
    transfer: { mode, briefingInstructions: null, ringTimeoutSecs: 25 },
  };
  await saveAgentSettings(dataSource, call.id, call.agentSettings);
  return call;
}
