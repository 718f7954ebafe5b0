// Ended calls with their charge, recorded as the progress path records it when a call ends (recordCallCharge),
// for the specs of the gateway's billing commands.
import { DataSource } from 'typeorm';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallPrices, recordCallCharge } from '../charges/call-charges';
import { saveSandboxCall } from './sandbox-calls';

export async function saveChargedCall(
  dataSource: DataSource,
  prices: CallPrices,
  fields: Partial<Call> & Pick<Call, 'partnerId'>,
  session: Pick<Partial<CallSession>, 'mediaStream'> = {},
): Promise<Call> {
  const call = await saveSandboxCall(
    dataSource,
    { status: 'completed', billDurationSeconds: 60, durationSeconds: 60, ...fields },
    session,
  );
  await dataSource.transaction((em) => recordCallCharge(em, call, prices));
  return call;
}
