import { EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { Call, CallBillingRate } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { creditsPaise } from './credits';

/** The price of a minute at a call's billing rate: a test run's session costs TEST_CALL_PRICE_PER_MINUTE_PAISE. */
export function pricePerMinutePaise(
  rate: CallBillingRate,
  config: Pick<CallsConfig, 'CALL_PRICE_PER_MINUTE_PAISE' | 'TEST_CALL_PRICE_PER_MINUTE_PAISE'>,
): number {
  return rate === 'test' ? config.TEST_CALL_PRICE_PER_MINUTE_PAISE : config.CALL_PRICE_PER_MINUTE_PAISE;
}

/**
 * The one hand-off of a call's charge, run in the transaction that ends the call (every way a call ends
 * goes through call progress). The charge is fixed here, shown on the session, and left as an unbilled
 * row that the gateway collects and acknowledges; session.completed only repeats it. A call can end
 * once, and the row's key is the call: nothing is charged twice.
 */
export async function recordCallCharge(
  em: EntityManager,
  call: Call,
  pricePerMinutePaise: number,
): Promise<number> {
  const amount = creditsPaise(call.billDurationSeconds ?? 0, pricePerMinutePaise);
  await em.update(CallSession, { callId: call.id }, { creditsUsedPaise: amount });
  if (amount > 0) {
    await em.query(
      `INSERT INTO ${tableOf(em, 'call_charges')} (call_id, partner_id, session_id, bill_seconds, amount_paise)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (call_id) DO NOTHING`,
      [call.id, call.partnerId, call.sessionId, call.billDurationSeconds ?? 0, amount],
    );
  }
  return amount;
}
