// The contract's state table "Webhook endpoint and agent fan-out flag": webhooks_include_account_endpoints
// through PATCH /agent/{id}/webhooks and PUT /agent/{id}, the 409 without an enabled own endpoint, and the
// automatic flip back when the last one is deleted, disabled by the partner or disabled by the platform.
import { api } from '../../support';
import { createAgent, createEndpoint, newPartner, sleep } from './webhook-fixtures';
import { WebhookReceiver } from './webhook-receiver';

const URL = 'https://example.com/hooks';

describe('agent fan-out flag', () => {
  let key: string;

  beforeEach(async () => {
    ({ key } = await newPartner());
  });

  const setFlag = (agentId: string, value: unknown, field = 'include_account_endpoints') =>
    api(`/agent/${agentId}/webhooks`, { method: 'PATCH', key, body: { [field]: value } });
  const flag = async (agentId: string) =>
    (await api(`/agent/${agentId}/webhooks`, { key })).body.data.include_account_endpoints;
  /** The agent record's echo, which follows the webhooks service's events. */
  async function agentRecordFlag(agentId: string, expected: boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = (await api(`/agent/${agentId}`, { key })).body.data.webhooks_include_account_endpoints;
      if (value === expected) return;
      if (Date.now() > deadline) throw new Error(`agent record shows ${value}, expected ${expected}`);
      await sleep(100);
    }
  }

  it('is true by default', async () => {
    const agent = await createAgent(key);
    expect(await flag(agent.id)).toBe(true);
    expect((await api(`/agent/${agent.id}`, { key })).body.data.webhooks_include_account_endpoints).toBe(
      true,
    );
  });

  it('refuses false without an enabled endpoint of the agent’s own (409 NO_AGENT_ENDPOINT)', async () => {
    const agent = await createAgent(key);
    // Account-wide endpoints and a disabled own endpoint do not count.
    await createEndpoint(key, { url: URL });
    await createEndpoint(key, { url: URL, enabled: false }, agent.id);
    for (const res of [
      await setFlag(agent.id, false),
      await setFlag(agent.id, false, 'webhooks_include_account_endpoints'),
      await api(`/agent/${agent.id}`, {
        method: 'PUT',
        key,
        body: { webhooks_include_account_endpoints: false },
      }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('NO_AGENT_ENDPOINT');
    }
    expect(await flag(agent.id)).toBe(true);
  });

  it('goes false with an enabled own endpoint and echoes the stored value on both routes', async () => {
    const agent = await createAgent(key);
    await createEndpoint(key, { url: URL }, agent.id);
    const res = await setFlag(agent.id, false);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      include_account_endpoints: false,
      webhooks_include_account_endpoints: false,
    });
    expect(await flag(agent.id)).toBe(false);
    await agentRecordFlag(agent.id, false);

    const put = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key,
      body: { webhooks_include_account_endpoints: true },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.webhooks_include_account_endpoints).toBe(true);
    expect(await flag(agent.id)).toBe(true);
    const putFalse = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key,
      body: { webhooks_include_account_endpoints: false },
    });
    expect(putFalse.body.data.webhooks_include_account_endpoints).toBe(false);
    expect(await flag(agent.id)).toBe(false);
  });

  it('refuses a non-boolean flag', async () => {
    const agent = await createAgent(key);
    for (const body of [{ include_account_endpoints: 'no' }, {}, { include_account_endpoints: null }]) {
      const res = await api(`/agent/${agent.id}/webhooks`, { method: 'PATCH', key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('flips back to true when the last enabled own endpoint is deleted', async () => {
    const agent = await createAgent(key);
    const a = await createEndpoint(key, { url: URL }, agent.id);
    const b = await createEndpoint(key, { url: URL }, agent.id);
    expect((await setFlag(agent.id, false)).status).toBe(200);
    await api(`/config/webhooks/${a.id}`, { method: 'DELETE', key });
    expect(await flag(agent.id)).toBe(false); // b is still enabled
    await api(`/config/webhooks/${b.id}`, { method: 'DELETE', key });
    expect(await flag(agent.id)).toBe(true);
    await agentRecordFlag(agent.id, true);
  });

  it('flips back to true when the last enabled own endpoint is disabled, and stays true after re-enabling', async () => {
    const agent = await createAgent(key);
    const a = await createEndpoint(key, { url: URL }, agent.id);
    expect((await setFlag(agent.id, false)).status).toBe(200);
    await agentRecordFlag(agent.id, false);
    expect(
      (await api(`/config/webhooks/${a.id}`, { method: 'PATCH', key, body: { enabled: false } })).status,
    ).toBe(200);
    expect(await flag(agent.id)).toBe(true);
    await agentRecordFlag(agent.id, true);
    await api(`/config/webhooks/${a.id}`, { method: 'PATCH', key, body: { enabled: true } });
    expect(await flag(agent.id)).toBe(true);
  });

  it('flips back when the platform disables a failing endpoint, which then shows why', async () => {
    // The e2e platform disables an endpoint after 10 s of failures with no success.
    const receiver = await WebhookReceiver.start();
    try {
      receiver.answer = () => ({ status: 500 });
      const agent = await createAgent(key);
      const e = await createEndpoint(key, { url: receiver.at('failing') }, agent.id);
      expect((await setFlag(agent.id, false)).status).toBe(200);
      const test = await api(`/config/webhooks/${e.id}/test`, { method: 'POST', key });
      await receiver.waitFor(4, () => true); // the whole schedule fails
      await sleep(10_500 - (Date.now() - receiver.requests[0].receivedAt));
      // The next failure after the window disables it.
      const retry = await api(`/webhook-deliveries/${test.body.data.id}/retry`, { method: 'POST', key });
      expect(retry.status).toBe(200);
      const deadline = Date.now() + 10_000;
      let endpoint;
      do {
        await sleep(200);
        endpoint = (await api(`/agent/${agent.id}/webhooks`, { key })).body.data.endpoints[0];
      } while (endpoint.enabled && Date.now() < deadline);
      expect(endpoint).toMatchObject({
        enabled: false,
        disabled_reason: 'auto_disabled',
        last_delivery_status: 'failed',
      });
      expect(endpoint.failing_since).not.toBeNull();
      expect(await flag(agent.id)).toBe(true);
      // Enabling it again clears the record.
      const enabled = await api(`/config/webhooks/${e.id}`, {
        method: 'PATCH',
        key,
        body: { enabled: true },
      });
      expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
