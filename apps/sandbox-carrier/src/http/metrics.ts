import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/**
 * The sandbox carrier's Prometheus metrics (GET /metrics), scraped like every app's: process metrics,
 * the live calls against SANDBOX_MAX_LIVE_CALLS and the API's answers by status.
 */
export class CarrierMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'status'>;

  constructor(liveCalls: () => number) {
    this.registry.setDefaultLabels({ service: 'sandbox-carrier' });
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'sandbox_carrier_live_calls',
      help: 'Simulated calls live now',
      registers: [this.registry],
      collect() {
        this.set(liveCalls());
      },
    });
    this.requests = new Counter({
      name: 'sandbox_carrier_api_responses_total',
      help: 'REST API responses by HTTP status',
      labelNames: ['status'],
      registers: [this.registry],
    });
  }

  responded(status: number): void {
    this.requests.inc({ status: String(status) });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
