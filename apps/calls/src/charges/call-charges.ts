import { EntityManager } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { accountPricePerMinutePaise, CallBillingRate, creditsPaise } from '@vap/messages';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { CallsConfig } from '../config/calls.config';
import { standingPricePerMinutePaise } from '../partners/partner-standing';

export type CallPrices = Pick<
  CallsConfig,
  'CALL_PRICE_PER_MINUTE_PAISE' | 'TEST_CALL_PRICE_PER_MINUTE_PAISE'
>;

/**
 * The price of a minute at a call's billing rate: the account's (its rate card for a reseller's client, else
 * CALL_PRICE_PER_MINUTE_PAISE); a test run's session costs TEST_CALL_PRICE_PER_MINUTE_PAISE whoever runs it.
 */
export function pricePerMinutePaise(
  rate: CallBillingRate,
  partner: { pricePerMinutePaise?: number | null },
  config: CallPrices,
): number {
  return rate === 'test'
    ? config.TEST_CALL_PRICE_PER_MINUTE_PAISE
    : accountPricePerMinutePaise(partner, config.CALL_PRICE_PER_MINUTE_PAISE);
}

/**
 * The one hand-off of a call's charge, run in the transaction that ends the call (every way a call ends
 * goes through call progress). The charge is fixed here, shown on the session, and left as an unbilled
 * row that the gateway collects and acknowledges; session.completed only repeats it. A call can end
 * once, and the row's key is the call: nothing is charged twice. The account's rate card is read as the
 * call ends (a reseller's client pays its own price, and sees it as the call's credits_used).
 */
export async function recordCallCharge(em: EntityManager, call: Call, config: CallPrices): Promise<number> {
  const rateCard = await standingPricePerMinutePaise(em, call.partnerId);
  const price = pricePerMinutePaise(call.billingRate, { pricePerMinutePaise: rateCard }, config);
  const amount = creditsPaise(call.billDurationSeconds ?? 0, price);
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
