import { api, createPartner, e2eEnv } from '../../support';
import { createAgent, randomId } from '../agents/agent-fixtures';

async function scrape(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** Sum of a metric's samples whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('metrics', () => {
  it('the gateway times requests by route pattern and status, and commands by subject and outcome', async () => {
    const { apiKey } = await createPartner({ name: 'Metrics Co' });
    const created = await api('/api/v2/customers', {
      key: apiKey,
      body: { external_id: 'm-1', name: 'Metered' },
    });
    for (let i = 0; i < 3; i++) await api(`/api/v2/customers/${created.body.data.id}`, { key: apiKey });
    await api('/api/v2/customers/cus_00000000-0000-4000-8000-000000000000', { key: apiKey });
    // Customers are the gateway's own; agent reads are commands to the agents service over NATS.
    const agent = await createAgent(apiKey);
    for (let i = 0; i < 3; i++) await api(`/agent/${agent.id}`, { key: apiKey });
    await api(`/agent/${randomId()}`, { key: apiKey });

    const text = await scrape(e2eEnv().gatewayUrl);
    const byRoute = { route: '/api/v2/customers/:id', method: 'GET', service: 'gateway' };
    expect(
      sample(text, 'vap_http_request_duration_seconds_count', { ...byRoute, status: '200' }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, 'vap_http_request_duration_seconds_count', { ...byRoute, status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="\/api\/v2\/customers\/cus_/);
    expect(
      sample(text, 'vap_nats_request_duration_seconds_count', {
        subject: 'agents.agent.get',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, 'vap_nats_request_duration_seconds_count', {
        subject: 'agents.agent.get',
        outcome: 'error',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'vap_outbox_published_total', {})).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^vap_outbox_lag_seconds\{service="gateway"\} \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes\{service="gateway"\}/m);
  });

  it('every service serves /metrics with its own service label and NATS metrics', async () => {
    // The sandbox carrier is a stand-in for a carrier outside the platform (no NATS, no outbox): not scraped.
    const { 'sandbox-carrier': sandbox, ...services } = e2eEnv().serviceUrls;
    expect(sandbox).toEqual(expect.any(String));
    expect(Object.keys(services).sort()).toEqual(['agents', 'calls', 'campaigns', 'voice', 'webhooks']);
    for (const [name, url] of Object.entries(services)) {
      const text = await scrape(url);
      expect(text).toMatch(new RegExp(`^process_cpu_user_seconds_total\\{service="${name}"\\}`, 'm'));
      expect(text).toContain('vap_nats_handler_duration_seconds');
      // The media plane has no schema, so no outbox.
      if (name !== 'voice') {
        expect(text).toMatch(new RegExp(`^vap_outbox_lag_seconds\\{service="${name}"\\} \\d`, 'm'));
      }
    }
  });

  it('the voice service reports live sessions, refused upgrades and turn latency', async () => {
    const text = await scrape(e2eEnv().serviceUrls.voice);
    expect(text).toMatch(/^voice_live_sessions\{service="voice"\} \d+/m);
    expect(text).toContain('# TYPE voice_refused_upgrades_total counter');
    expect(text).toContain('# TYPE voice_turn_latency_seconds histogram');
  });

  it('the webhooks service reports its delivery queue depth by state', async () => {
    const text = await scrape(e2eEnv().serviceUrls.webhooks);
    for (const state of ['due', 'scheduled', 'delivering']) {
      expect(text).toMatch(
        new RegExp(`^vap_webhook_delivery_queue_depth\\{state="${state}",service="webhooks"\\} \\d+`, 'm'),
      );
    }
    expect(text).toContain('# TYPE vap_webhook_delivery_attempts_total counter');
  });

  it('calls and campaigns report active calls per partner and dispatch counts', async () => {
    const { calls, campaigns } = e2eEnv().serviceUrls;
    expect(await scrape(calls)).toContain('# TYPE vap_calls_active gauge');
    expect(await scrape(campaigns)).toContain('# TYPE vap_campaign_dispatches_total counter');
  });

  it('keeps /metrics outside the partner API (no key, no envelope)', async () => {
    const res = await fetch(`${e2eEnv().gatewayUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toMatch(/"success"/);
  });
});
