import { adminApi, api, createPartner } from '../../support';
import { CallsPartner, callee, EventTap, HANGS_UP_AFTER_INTRO } from '../calls/call-fixtures';
import { CampaignsPartner, Loose } from '../campaigns/campaign-fixtures';

// Sandbox calls run a few seconds of conversation each, then post-call processing: beyond Jest's 60 s when
// the machine is loaded.
jest.setTimeout(180_000);

const rupees = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function transactions(key: string, query = ''): Promise<Loose[]> {
  const all: Loose[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const path: string = `/billing/transactions?${query}${sep}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await api(path, { key });
    if (res.status !== 200)
      throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    expect(res.body.data.transactions.length).toBeLessThanOrEqual(2);
    all.push(...res.body.data.transactions);
    cursor = res.body.data.next_cursor;
  } while (cursor);
  return all;
}

async function untilCharges(key: string, count: number, query = ''): Promise<Loose[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await api(`/billing/transactions?type=charge&limit=100${query}`, { key });
    expect(res.status).toBe(200);
    if (res.body.data.transactions.length >= count) return res.body.data.transactions;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} charges`);
    await sleep(300);
  }
}

async function usage(key: string, query: string): Promise<Loose> {
  const res = await api(`/billing/usage?${query}`, { key });
  if (res.status !== 200) throw new Error(`usage answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const minutes = (seconds: number) => Math.round((seconds * 100) / 60) / 100;

/** The sums the ledger's charges make, as usage reports them. */
function sums(charges: Loose[]) {
  const billed = charges.reduce((s, t) => s + t.billed_seconds, 0);
  // The charges that name a provider the platform paid for.
  const platform = charges
    .filter((t) => t.platform_speech_providers?.length)
    .reduce((s, t) => s + t.billed_seconds, 0);
  // The tokens of every charge's model use, and the part on the platform's keys.
  const tokens = (part: 'input_tokens' | 'output_tokens', platformOnly: boolean) =>
    charges
      .flatMap((t) => (t.model_usage ?? []) as Loose[])
      .filter((m) => !platformOnly || m.paid_by === 'platform')
      .reduce((s, m) => s + m[part], 0);
  return {
    calls: charges.length,
    billed_seconds: billed,
    minutes: minutes(billed),
    credits_inr: rupees(-charges.reduce((s, t) => s + t.amount_inr, 0)),
    platform_speech_billed_seconds: platform,
    platform_speech_minutes: minutes(platform),
    model_input_tokens: tokens('input_tokens', false),
    model_output_tokens: tokens('output_tokens', false),
    platform_model_input_tokens: tokens('input_tokens', true),
    platform_model_output_tokens: tokens('output_tokens', true),
  };
}

const NO_USAGE = {
  calls: 0,
  billed_seconds: 0,
  minutes: 0,
  credits_inr: 0,
  platform_speech_billed_seconds: 0,
  platform_speech_minutes: 0,
  model_input_tokens: 0,
  model_output_tokens: 0,
  platform_model_input_tokens: 0,
  platform_model_output_tokens: 0,
};

describe('billing transactions and usage', () => {
  let tap: EventTap;

  beforeAll(async () => {
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('lists every charge, top-up and adjustment, newest first, in a balance chain ending at the balance', async () => {
    const partner = await CallsPartner.create({ balance_inr: 200 });
    const a = (await partner.createAgent()) as Loose;
    const b = (await partner.createAgent()) as Loose;
    const placed = [
      await partner.start({ agent_id: a.id, to_number: callee(HANGS_UP_AFTER_INTRO) }),
      await partner.start({ agent_id: a.id, to_number: callee(HANGS_UP_AFTER_INTRO) }),
      await partner.start({ agent_id: b.id, to_number: callee(HANGS_UP_AFTER_INTRO) }),
    ].map((r) => r.body.data.call_id as string);
    const missed = (await partner.start({ agent_id: a.id, to_number: callee('01') })).body.data.call_id;
    const completed = new Map<string, Loose>();
    for (const id of [...placed, missed]) completed.set(id, (await tap.sessionCompleted(id)).data);
    const charges = await untilCharges(partner.generalKey, 3);

    // Operator: a top-up (a higher balance), then an adjustment down.
    const before = (await api('/billing/balance', { key: partner.generalKey })).body.data.balance_inr;
    const topped = rupees(before + 50.25);
    expect(
      (await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { balance_inr: topped } })).status,
    ).toBe(200);
    expect(
      (await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { balance_inr: topped - 10 } }))
        .status,
    ).toBe(200);

    const all = await transactions(partner.generalKey);
    // Pages of 2 give the same list as one page of 100.
    const one = await api('/billing/transactions?limit=100', { key: partner.generalKey });
    expect(one.body.data.transactions).toEqual(all);
    expect(one.body.data.next_cursor).toBeNull();
    expect(all.map((t) => t.type)).toEqual(['adjustment', 'top_up', 'charge', 'charge', 'charge', 'top_up']);

    // The chain: each balance_after is the previous one plus the amount; the newest is the balance.
    const balance = (await api('/billing/balance', { key: partner.generalKey })).body.data.balance_inr;
    expect(all[0].balance_after_inr).toBe(balance);
    expect(balance).toBe(rupees(topped - 10));
    for (let i = 0; i < all.length - 1; i++) {
      expect(rupees(all[i + 1].balance_after_inr + all[i].amount_inr)).toBe(all[i].balance_after_inr);
    }
    expect(all[all.length - 1]).toMatchObject({ type: 'top_up', amount_inr: 200, balance_after_inr: 200 });
    expect(all[1]).toMatchObject({
      type: 'top_up',
      amount_inr: 50.25,
      call_id: null,
      billed_seconds: null,
      platform_speech_providers: null,
    });
    expect(all[0]).toMatchObject({
      type: 'adjustment',
      amount_inr: -10,
      currency: 'INR',
      platform_speech_providers: null,
    });
    for (const t of all) {
      expect(typeof t.description).toBe('string');
      expect(new Date(t.created_at).toISOString()).toBe(t.created_at);
    }

    // Each charge names its call, agent, project and billed seconds, and is the session's credits_used.
    expect(charges.map((c) => c.call_id).sort()).toEqual([...placed].sort());
    for (const c of charges) {
      const session = completed.get(c.call_id)!;
      const agent = session.agent_id === a.id ? a : b;
      expect(c).toMatchObject({
        type: 'charge',
        amount_inr: -session.credits_used,
        agent_id: agent.id,
        project_id: agent.project_id,
        campaign_id: null,
        browser_session_id: null,
        billed_seconds: session.bill_seconds,
        // Sandbox calls speak and listen with the offline engines: nothing ran on the platform's keys.
        platform_speech_providers: [],
      });
      expect(c.billed_seconds).toBeGreaterThan(0);
      expect(c.description).toMatch(/^Call charge/);
    }
    expect(charges.some((c) => c.call_id === missed)).toBe(false);

    // Filters: type, and a time range around the top-up (from inclusive, to exclusive).
    expect((await transactions(partner.generalKey, 'type=top_up')).map((t) => t.id)).toEqual([
      all[1].id,
      all[5].id,
    ]);
    const at = encodeURIComponent(all[1].created_at);
    const since = await transactions(partner.generalKey, `from=${at}`);
    expect(since.map((t) => t.id)).toEqual([all[0].id, all[1].id]);
    const until = await transactions(partner.generalKey, `to=${at}`);
    expect(until.map((t) => t.id)).toEqual(all.slice(2).map((t) => t.id));
    const chargesBefore = await transactions(partner.generalKey, `to=${at}&type=charge`);
    expect(chargesBefore).toHaveLength(3);

    // Usage: the charges' sums, per grouping and in total.
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    const expected = sums(charges);
    for (const group of ['day', 'agent', 'campaign', 'project']) {
      const u = await usage(partner.generalKey, `from=${from}&to=${to}&group_by=${group}`);
      expect(u.group_by).toBe(group);
      expect(u.totals).toEqual(expected);
      expect(u.buckets.reduce((s: number, k: Loose) => s + k.calls, 0)).toBe(expected.calls);
      expect(u.buckets.reduce((s: number, k: Loose) => s + k.billed_seconds, 0)).toBe(
        expected.billed_seconds,
      );
      expect(rupees(u.buckets.reduce((s: number, k: Loose) => s + k.credits_inr, 0))).toBe(
        expected.credits_inr,
      );
      if (group === 'agent') {
        const byKey = new Map(u.buckets.map((k: Loose) => [k.key, k]));
        expect(byKey.get(a.id)).toEqual({ key: a.id, ...sums(charges.filter((c) => c.agent_id === a.id)) });
        expect(byKey.get(b.id)).toEqual({ key: b.id, ...sums(charges.filter((c) => c.agent_id === b.id)) });
      }
      if (group === 'day')
        expect(u.buckets.map((k: Loose) => k.key)).toEqual([all[2].created_at.slice(0, 10)]);
      if (group === 'campaign') expect(u.buckets).toEqual([{ key: null, ...expected }]);
      if (group === 'project') expect(u.buckets).toEqual([{ key: a.project_id, ...expected }]);
    }
    // A range before the calls has nothing.
    const empty = await usage(
      partner.generalKey,
      `from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z&group_by=day`,
    );
    expect(empty.buckets).toEqual([]);
    expect(empty.totals).toEqual(NO_USAGE);

    // Tenancy: another account sees its own opening balance only, and no usage.
    const other = await createPartner({ balance_inr: 5 });
    const theirs = await transactions(other.apiKey);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ type: 'top_up', amount_inr: 5, balance_after_inr: 5 });
    expect(all.map((t) => t.id)).not.toContain(theirs[0].id);
    const theirUsage = await usage(other.apiKey, `from=${from}&to=${to}&group_by=agent`);
    expect(theirUsage.totals.calls).toBe(0);
  });

  it('says which minutes ran on platform-paid speech: none for calls on the offline engines', async () => {
    const partner = await CallsPartner.create({ balance_inr: 50 });
    const agent = (await partner.createAgent()) as Loose;
    const ids = [
      await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) }),
      await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) }),
    ].map((r) => r.body.data.call_id as string);
    for (const id of ids) {
      // The voice service's end report named no platform-paid provider, and session.completed says so.
      const session = (await tap.sessionCompleted(id)).data;
      expect(session.platform_speech_providers).toEqual([]);
      const call = await partner.calls(`/${id}`);
      expect(call.status).toBe(200);
      expect(call.body.data).toMatchObject({
        call_id: id,
        status: 'completed',
        platform_speech_providers: [],
      });
    }
    const listed = await partner.calls(`?agent_id=${agent.id}&limit=10`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.calls.map((c: Loose) => c.call_id).sort()).toEqual([...ids].sort());
    for (const c of listed.body.data.calls) expect(c.platform_speech_providers).toEqual([]);

    const charges = await untilCharges(partner.generalKey, 2);
    expect(charges.map((c) => c.call_id).sort()).toEqual([...ids].sort());
    for (const c of charges) {
      expect(c.platform_speech_providers).toEqual([]);
      expect(c.billed_seconds).toBeGreaterThan(0);
    }
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    for (const group of ['day', 'agent']) {
      const u = await usage(partner.generalKey, `from=${from}&to=${to}&group_by=${group}`);
      expect(u.totals).toEqual(sums(charges));
      expect(u.totals.billed_seconds).toBeGreaterThan(0);
      expect(u.totals).toMatchObject({ platform_speech_billed_seconds: 0, platform_speech_minutes: 0 });
      for (const b of u.buckets) {
        expect(b).toMatchObject({ platform_speech_billed_seconds: 0, platform_speech_minutes: 0 });
      }
    }
  });

  it('names the campaign of a campaign’s calls, and groups usage by it', async () => {
    const partner = await CampaignsPartner.create();
    const c = await partner.createCampaign();
    await partner.addContacts(c.campaign_id, [callee(HANGS_UP_AFTER_INTRO)]);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const [charge] = await untilCharges(partner.key, 1);
    expect(charge).toMatchObject({ type: 'charge', campaign_id: c.campaign_id, agent_id: partner.agent.id });
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    const u = await usage(partner.key, `from=${from}&to=${to}&group_by=campaign`);
    expect(u.buckets).toEqual([{ key: c.campaign_id, ...sums([charge]) }]);
  });

  it('refuses a bad range, type or grouping with VALIDATION_ERROR and its details', async () => {
    const { apiKey } = await createPartner({ balance_inr: 1 });
    const bad = [
      '/billing/transactions?type=bonus',
      '/billing/transactions?from=yesterday',
      '/billing/transactions?from=2026-02-30T00:00:00Z',
      '/billing/transactions?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
      '/billing/usage?to=2026-01-02T00:00:00Z&group_by=day',
      '/billing/usage?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&group_by=day',
      '/billing/usage?from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z&group_by=day',
      '/billing/usage?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&group_by=week',
      '/billing/transactions?cursor=not-a-cursor',
    ];
    for (const path of bad) {
      const res = await api(path, { key: apiKey });
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      if (!path.includes('cursor=')) expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    // 366 days is the longest range.
    const longest = await api(
      '/billing/usage?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&group_by=day',
      { key: apiKey },
    );
    expect(longest.status).toBe(200);
  });
});
