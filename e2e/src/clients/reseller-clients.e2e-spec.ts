import { randomUUID } from 'node:crypto';
import { adminApi, api, ApiResponse, createPartner } from '../../support';
import { callee, EventTap, VOICE_ID } from '../calls/call-fixtures';

// One sandbox call (a few seconds of conversation, then post-call processing): beyond Jest's 60 s when the
// machine is loaded.
jest.setTimeout(180_000);

// Loose reads of response bodies, as the other specs do.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The platform's price a minute in paise (CALL_PRICE_PER_MINUTE_PAISE of calls and gateway: the default). */
const PLATFORM_PRICE_PAISE = 400;

/** A partner the operator has marked a reseller. */
async function reseller(balance_inr = 1000): Promise<{ id: string; key: string }> {
  const { partner, apiKey } = await createPartner({ balance_inr, concurrency_limit: 10 });
  const marked = await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { reseller: true } });
  expect(marked.status).toBe(200);
  expect(marked.body.data).toMatchObject({ reseller: true, reseller_id: null });
  return { id: partner.id, key: apiKey };
}

async function createClient(key: string, body: Record<string, unknown> = {}): Promise<Loose> {
  const res = await api('/clients', { method: 'POST', key, body: { name: 'Acme Clinics', ...body } });
  if (res.status !== 200)
    throw new Error(`POST /clients answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function createAgent(key: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return api('/agent', {
    method: 'POST',
    key,
    headers,
    body: {
      agent_name: `Agent ${randomUUID().slice(0, 8)}`,
      prompt: 'You are Maya from Acme Health. You help patients book appointments.',
      voice_id: VOICE_ID,
      agent_type: 'outbound',
      intro_message: 'Hi, this is Maya from Acme Health.',
    },
  });
}

async function agentIds(key: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await api('/agent?limit=100', { key, headers });
  expect(res.status).toBe(200);
  return res.body.data.agents.map((a: Loose) => a.id);
}

async function balance(key: string): Promise<number> {
  const res = await api('/billing/balance', { key });
  expect(res.status).toBe(200);
  return res.body.data.balance_inr;
}

async function ledger(key: string, type?: string): Promise<Loose[]> {
  const res = await api(`/billing/transactions?limit=100${type ? `&type=${type}` : ''}`, { key });
  expect(res.status).toBe(200);
  return res.body.data.transactions;
}

/** Polls until `read` answers something (the audit is written once the response is finished). */
async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe('reseller clients', () => {
  it('is for resellers only: another account gets 403 on /clients and 404 for the header', async () => {
    const { partner, apiKey } = await createPartner();
    const list = await api('/clients', { key: apiKey });
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe('FORBIDDEN');
    const create = await api('/clients', { method: 'POST', key: apiKey, body: { name: 'x' } });
    expect(create.status).toBe(403);

    // A real client of a real reseller: the non-reseller still cannot tell it exists.
    const r = await reseller();
    const client = await createClient(r.key);
    for (const id of [client.client.id, randomUUID(), 'not-an-id']) {
      const res = await api('/agent', { key: apiKey, headers: { 'X-On-Behalf-Of': id } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await api(`/clients/${client.client.id}`, { key: apiKey })).status).toBe(403);
    expect(partner.reseller).toBe(false);
  });

  it('creates a client with a key of its own, on its own tenancy, listed and read by its reseller', async () => {
    const r = await reseller();
    const ownAgent = await createAgent(r.key);
    expect(ownAgent.status).toBe(200);

    const created = await createClient(r.key, {
      email: 'ops@acme.example',
      concurrency_limit: 3,
      price_per_minute_inr: 6,
    });
    expect(created.api_key).toMatch(/^rg_live_/);
    expect(created.client).toMatchObject({
      name: 'Acme Clinics',
      email: 'ops@acme.example',
      status: 'approved',
      suspended_by: null,
      balance_inr: 0,
      concurrency_limit: 3,
      price_per_minute_inr: 6,
    });
    const clientKey: string = created.api_key;

    // The client works on its own account and sees none of the reseller's agents, nor they its.
    const clientAgent = await createAgent(clientKey);
    expect(clientAgent.status).toBe(200);
    expect(await agentIds(clientKey)).toEqual([clientAgent.body.data.id]);
    expect(await agentIds(r.key)).toEqual([ownAgent.body.data.id]);
    expect((await api(`/agent/${ownAgent.body.data.id}`, { key: clientKey })).status).toBe(404);
    expect((await api(`/agent/${clientAgent.body.data.id}`, { key: r.key })).status).toBe(404);
    // A client is no reseller.
    expect((await api('/clients', { key: clientKey })).status).toBe(403);

    const got = await api(`/clients/${created.client.id}`, { key: r.key });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(created.client);

    // The list pages with a cursor.
    const second = await createClient(r.key, { name: 'Beta Dental' });
    const first = await api('/clients?limit=1', { key: r.key });
    expect(first.status).toBe(200);
    expect(first.body.data.clients.map((c: Loose) => c.id)).toEqual([created.client.id]);
    const next = await api(`/clients?limit=1&cursor=${encodeURIComponent(first.body.data.next_cursor)}`, {
      key: r.key,
    });
    expect(next.body.data.clients.map((c: Loose) => c.id)).toEqual([second.client.id]);
    expect(next.body.data.next_cursor).toBeNull();

    // The operator sees the client as the reseller's.
    const asOperator = await adminApi(`/partners/${created.client.id}`);
    expect(asOperator.body.data).toMatchObject({ reseller: false, reseller_id: r.id });
    // ... and cannot make a client a reseller.
    const nested = await adminApi(`/partners/${created.client.id}`, {
      method: 'PATCH',
      body: { reseller: true },
    });
    expect(nested.status).toBe(400);
    // A reseller with clients stays one.
    const unmark = await adminApi(`/partners/${r.id}`, { method: 'PATCH', body: { reseller: false } });
    expect(unmark.status).toBe(409);
  });

  it('validates limits and the rate card against the reseller’s own and the platform’s price', async () => {
    const r = await reseller();
    const below = await api('/clients', {
      method: 'POST',
      key: r.key,
      body: { name: 'Cheap', price_per_minute_inr: PLATFORM_PRICE_PAISE / 100 - 0.01 },
    });
    expect(below.status).toBe(400);
    expect(below.body.error.code).toBe('VALIDATION_ERROR');
    expect(below.body.error.details).toEqual([expect.objectContaining({ field: 'price_per_minute_inr' })]);
    const over = await api('/clients', {
      method: 'POST',
      key: r.key,
      body: { name: 'Greedy', concurrency_limit: 11 },
    });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([expect.objectContaining({ field: 'concurrency_limit' })]);
    for (const body of [
      { name: '' },
      { name: 'x', price_per_minute_inr: 4.001 },
      { name: 'x', email: 'nope' },
    ]) {
      expect((await api('/clients', { method: 'POST', key: r.key, body })).status).toBe(400);
    }

    const client = await createClient(r.key);
    expect(client.client.price_per_minute_inr).toBeNull();
    const path = `/clients/${client.client.id}`;
    const at = await api(path, {
      method: 'PATCH',
      key: r.key,
      body: { price_per_minute_inr: 4, concurrency_limit: 10 },
    });
    expect(at.status).toBe(200);
    expect(at.body.data).toMatchObject({ price_per_minute_inr: 4, concurrency_limit: 10 });
    expect(
      (await api(path, { method: 'PATCH', key: r.key, body: { price_per_minute_inr: 3.99 } })).status,
    ).toBe(400);
    expect((await api(path, { method: 'PATCH', key: r.key, body: { concurrency_limit: 11 } })).status).toBe(
      400,
    );
    const cleared = await api(path, { method: 'PATCH', key: r.key, body: { price_per_minute_inr: null } });
    expect(cleared.body.data.price_per_minute_inr).toBeNull();
  });

  it('funds a client from the reseller’s balance with an entry in both ledgers, and refuses more than it has', async () => {
    const r = await reseller(100);
    const { client, api_key: clientKey } = await createClient(r.key);

    const funded = await api(`/clients/${client.id}/fund`, {
      method: 'POST',
      key: r.key,
      body: { amount_inr: 60.5 },
    });
    expect(funded.status).toBe(200);
    expect(funded.body.data).toMatchObject({ amount_inr: 60.5, reseller_balance_inr: 39.5 });
    expect(funded.body.data.client.balance_inr).toBe(60.5);
    expect(await balance(r.key)).toBe(39.5);
    expect(await balance(clientKey)).toBe(60.5);

    const [out] = await ledger(r.key, 'transfer');
    expect(out).toMatchObject({ amount_inr: -60.5, balance_after_inr: 39.5, client_id: client.id });
    const [incoming] = await ledger(clientKey, 'transfer');
    expect(incoming).toMatchObject({ amount_inr: 60.5, balance_after_inr: 60.5, client_id: null });

    // More than the reseller has: refused, nothing moves on either side.
    const refused = await api(`/clients/${client.id}/fund`, {
      method: 'POST',
      key: r.key,
      body: { amount_inr: 39.51 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await balance(r.key)).toBe(39.5);
    expect(await balance(clientKey)).toBe(60.5);
    expect(await ledger(r.key, 'transfer')).toHaveLength(1);
    expect(await ledger(clientKey, 'transfer')).toHaveLength(1);

    for (const body of [{ amount_inr: 0 }, { amount_inr: -5 }, { amount_inr: 1.234 }, {}]) {
      expect((await api(`/clients/${client.id}/fund`, { method: 'POST', key: r.key, body })).status).toBe(
        400,
      );
    }
  });

  it('suspends a client (its key answers 403) and resumes it (the key works again)', async () => {
    const r = await reseller();
    const { client, api_key: clientKey } = await createClient(r.key);
    expect((await api('/agent', { key: clientKey })).status).toBe(200);

    const suspended = await api(`/clients/${client.id}/suspend`, { method: 'POST', key: r.key });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({ status: 'suspended', suspended_by: 'reseller' });
    const blocked = await api('/agent', { key: clientKey });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('FORBIDDEN');
    // Acting on its behalf is blocked too.
    expect((await api('/agent', { key: r.key, headers: { 'X-On-Behalf-Of': client.id } })).status).toBe(403);

    const resumed = await api(`/clients/${client.id}/resume`, { method: 'POST', key: r.key });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ status: 'approved', suspended_by: null });
    expect((await api('/agent', { key: clientKey })).status).toBe(200);

    // The operator's suspension is not the reseller's to lift.
    await adminApi(`/partners/${client.id}`, { method: 'PATCH', body: { status: 'suspended' } });
    const notYours = await api(`/clients/${client.id}/resume`, { method: 'POST', key: r.key });
    expect(notYours.status).toBe(409);
    expect(notYours.body.error.code).toBe('INVALID_STATE');
    expect((await api('/agent', { key: clientKey })).status).toBe(403);
  });

  it('acts on behalf of its own client through the header, audited; another reseller gets 404', async () => {
    const r = await reseller();
    const { client, api_key: clientKey } = await createClient(r.key);
    const onBehalf = { 'X-On-Behalf-Of': client.id };

    const made = await createAgent(r.key, onBehalf);
    expect(made.status).toBe(200);
    const agentId: string = made.body.data.id;
    // The agent is the client's: its own key sees it, the reseller's without the header does not.
    expect(await agentIds(clientKey)).toEqual([agentId]);
    expect(await agentIds(r.key)).toEqual([]);
    expect(await agentIds(r.key, onBehalf)).toEqual([agentId]);

    const entries = await until('the audit of the two requests', async () => {
      const res = await api(`/clients/${client.id}/audit`, { key: r.key });
      expect(res.status).toBe(200);
      return res.body.data.entries.length >= 2 ? (res.body.data.entries as Loose[]) : undefined;
    });
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/v2/agent', 200],
      ['POST', '/api/v2/agent', 200],
    ]);
    expect(entries[1].api_key_id).toEqual(expect.any(String));

    // A key limited to other scopes may not act on behalf; one with clients:write may.
    const scoped = await adminApi(`/partners/${r.id}/api-keys`, {
      method: 'POST',
      body: { scopes: ['agents:write'] },
    });
    expect((await api('/agent', { key: scoped.body.data.api_key, headers: onBehalf })).status).toBe(403);
    const allowed = await adminApi(`/partners/${r.id}/api-keys`, {
      method: 'POST',
      body: { scopes: ['agents:read', 'clients:write'] },
    });
    expect((await api('/agent', { key: allowed.body.data.api_key, headers: onBehalf })).status).toBe(200);

    // Another reseller: the client is not there, by the header or by id.
    const other = await reseller();
    const viaHeader = await api('/agent', { key: other.key, headers: onBehalf });
    expect(viaHeader.status).toBe(404);
    expect(viaHeader.body.error.code).toBe('NOT_FOUND');
    for (const path of ['', '/usage?from=2026-01-01&to=2026-01-02&group_by=day', '/audit']) {
      expect((await api(`/clients/${client.id}${path}`, { key: other.key })).status).toBe(404);
    }
    const steal = await api(`/clients/${client.id}/fund`, {
      method: 'POST',
      key: other.key,
      body: { amount_inr: 1 },
    });
    expect(steal.status).toBe(404);
    expect((await api(`/clients/${client.id}/suspend`, { method: 'POST', key: other.key })).status).toBe(404);
    expect(
      (await api(`/clients/${client.id}`, { method: 'PATCH', key: other.key, body: { name: 'x' } })).status,
    ).toBe(404);
  });

  it('charges a client’s call at its rate card, credits the reseller the margin, and reports the client’s usage', async () => {
    const tap = await EventTap.open();
    try {
      const r = await reseller(500);
      const rate = 6; // INR a minute, over the platform's 4.00
      const { client, api_key: clientKey } = await createClient(r.key, { price_per_minute_inr: rate });
      await api(`/clients/${client.id}/fund`, { method: 'POST', key: r.key, body: { amount_inr: 100 } });
      const agent = await createAgent(clientKey);
      expect(agent.status).toBe(200);
      const from = new Date(Date.now() - 60_000).toISOString();

      const started = await api('/calls/start', {
        method: 'POST',
        key: clientKey,
        body: { agent_id: agent.body.data.id, to_number: callee('42') },
      });
      expect(started.status).toBe(200);
      const callId: string = started.body.data.call_id;
      const done = await tap.sessionCompleted(callId, 120_000);

      const charge = await until('the client’s charge', async () => (await ledger(clientKey, 'charge'))[0]);
      const resale = await until('the reseller’s margin', async () => (await ledger(r.key, 'resale'))[0]);
      const seconds: number = charge.billed_seconds;
      expect(seconds).toBeGreaterThan(0);
      const clientPaise = Math.ceil((seconds * rate * 100) / 60);
      const platformPaise = Math.ceil((seconds * PLATFORM_PRICE_PAISE) / 60);
      expect(charge).toMatchObject({ call_id: callId, amount_inr: -clientPaise / 100 });
      // The client sees its own price on its call, never the reseller's cost.
      expect(done.data).toMatchObject({
        credits_used_paise: clientPaise,
        credits_used: clientPaise / 100,
        bill_seconds: seconds,
        billing_rate: 'standard',
      });
      const shown = await api(`/calls/${callId}`, { key: clientKey });
      expect(shown.status).toBe(200);
      expect(shown.body.data.session.credits_used).toBe(clientPaise / 100);
      // And the operator sees the client's rate card on the account.
      const account = await adminApi(`/partners/${client.id}`);
      expect(account.body.data).toMatchObject({ reseller_id: r.id, price_per_minute_inr: rate });
      expect(resale).toMatchObject({
        call_id: callId,
        client_id: client.id,
        billed_seconds: seconds,
        amount_inr: (clientPaise - platformPaise) / 100,
      });
      // Once in each ledger: the reseller has no charge of its own for the client's call.
      expect(await ledger(r.key, 'charge')).toEqual([]);
      expect(await balance(r.key)).toBe((40_000 + clientPaise - platformPaise) / 100);
      expect(await balance(clientKey)).toBe((10_000 - clientPaise) / 100);

      const to = new Date(Date.now() + 60_000).toISOString();
      const usage = await api(`/clients/${client.id}/usage?from=${from}&to=${to}&group_by=agent`, {
        key: r.key,
      });
      expect(usage.status).toBe(200);
      expect(usage.body.data.totals).toMatchObject({
        calls: 1,
        billed_seconds: seconds,
        credits_inr: clientPaise / 100,
      });
      expect(usage.body.data.buckets).toEqual([
        expect.objectContaining({ key: agent.body.data.id, calls: 1 }),
      ]);
      // The reseller's own usage holds its own calls only.
      const own = await api(`/billing/usage?from=${from}&to=${to}&group_by=day`, { key: r.key });
      expect(own.body.data.totals.calls).toBe(0);
      const badRange = await api(`/clients/${client.id}/usage?from=${to}&to=${from}&group_by=day`, {
        key: r.key,
      });
      expect(badRange.status).toBe(400);
    } finally {
      await tap.close();
    }
  });
});
