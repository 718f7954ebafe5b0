import { Counter } from 'prom-client';

/**
 * Dial attempts by kind (first, retry) and outcome: placed (the calls service took it), deferred (the
 * account was at its limit; retried shortly), refused (contact skipped or campaign paused) and unknown
 * (no answer from the calls service; the reconciler settles it).
 */
export const campaignDispatches = new Counter({
  name: 'vap_campaign_dispatches_total',
  help: 'Campaign dial attempts by kind (first, retry) and outcome (placed, deferred, refused, unknown)',
  labelNames: ['kind', 'outcome'],
});
