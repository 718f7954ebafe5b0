import { Counter } from 'prom-client';

/**
 * Terminal carrier callbacks checked against the carrier's REST API, by outcome: verified (the carrier's
 * record ended the call), refused_live (the carrier says the call goes on: the callback was not applied),
 * deferred (the carrier could not be asked; retried), unreconciled (given up: ended, billed the time the
 * platform saw, and flagged on the call).
 */
export const carrierReconciliations = new Counter({
  name: 'vap_carrier_reconciliations_total',
  help: 'Terminal carrier callbacks checked with the carrier REST API, by provider and outcome',
  labelNames: ['provider', 'outcome'],
});

/**
 * Live calls the carrier went quiet on, asked about with its REST API, by outcome: ended (its record had a
 * final status: applied), lost (it no longer knows the call: ended carrier_call_lost), live, unknown (no
 * answer: asked again later).
 */
export const carrierSilenceChecks = new Counter({
  name: 'vap_carrier_silence_checks_total',
  help: 'Live calls without carrier news checked with the carrier REST API, by provider and outcome',
  labelNames: ['provider', 'outcome'],
});
