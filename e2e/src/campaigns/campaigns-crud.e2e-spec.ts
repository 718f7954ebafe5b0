import { api, createPartner } from '../../support';
import { callee, CampaignsPartner, CMP_ID, UUID } from './campaign-fixtures';

const CONTRACT_FIELDS = [
  'campaign_id',
  'name',
  'description',
  'agent_id',
  'agent_name',
  'provider',
  'type',
  'phone_numbers',
  'concurrency_limit',
  'retry_concurrency',
  'retry_count',
  'cooldown_minutes',
  'retry_delays_minutes',
  'callback_enabled',
  'status',
  'total_contacts',
  'completed_count',
  'failed_count',
  'skipped_count',
  'started_at',
  'paused_at',
  'completed_at',
  'created_at',
];

describe('campaigns: create, read, update, delete', () => {
  let partner: CampaignsPartner;
  let defaultNumber: { id: string; number: string };

  beforeAll(async () => {
    partner = await CampaignsPartner.create();
    const numbers = await partner.call('/phone-numbers');
    defaultNumber = numbers.body.data.phone_numbers.find((n: { is_default: boolean }) => n.is_default);
  });

  it('creates a draft with every contract field, defaults and the default caller ID', async () => {
    const res = await partner.call('/campaigns', {
      method: 'POST',
      body: { name: '  Reminders  ', agent_id: partner.agent.id },
    });
    expect(res.status).toBe(200);
    const c = res.body.data;
    for (const field of CONTRACT_FIELDS) expect(c).toHaveProperty(field);
    expect(c).toEqual({
      campaign_id: expect.stringMatching(CMP_ID),
      name: 'Reminders',
      description: '',
      agent_id: partner.agent.id,
      agent_name: partner.agent.agent_name,
      provider: 'sandbox',
      type: 'outbound',
      phone_numbers: [{ phone_number_id: defaultNumber.id, phone_number: defaultNumber.number }],
      concurrency_limit: 1,
      retry_concurrency: 0,
      retry_count: 0,
      cooldown_minutes: 0,
      retry_delays_minutes: [],
      callback_enabled: false,
      calling_window: null,
      status: 'draft',
      waiting_reason: null,
      waiting_until: null,
      pause_reason: null,
      total_contacts: 0,
      completed_count: 0,
      failed_count: 0,
      skipped_count: 0,
      started_at: null,
      paused_at: null,
      completed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('stores every setting given', async () => {
    const imported = await partner.call('/phone-numbers', {
      method: 'POST',
      body: { number: callee('11'), provider: 'sandbox' },
    });
    expect(imported.status).toBe(200);
    const c = await partner.createCampaign({
      name: 'Full',
      description: 'All settings',
      phone_number_ids: [defaultNumber.id, imported.body.data.id],
      concurrency_limit: 4,
      retry_concurrency: 2,
      retry_count: 3,
      retry_delays_minutes: [5, 30],
      cooldown_minutes: 10,
      callback_enabled: true,
      calling_window: { preset: 'US', days: ['fri', 'mon'], timezone: 'America/Chicago' },
      type: 'outbound',
    });
    expect(c).toMatchObject({
      // A preset's hours, with the fields given beside it; days in week order.
      calling_window: {
        preset: 'US',
        days: ['mon', 'fri'],
        start: '08:00',
        end: '21:00',
        timezone: 'America/Chicago',
      },
      description: 'All settings',
      phone_numbers: [
        { phone_number_id: defaultNumber.id, phone_number: defaultNumber.number },
        { phone_number_id: imported.body.data.id, phone_number: imported.body.data.number },
      ],
      concurrency_limit: 4,
      retry_concurrency: 2,
      retry_count: 3,
      retry_delays_minutes: [5, 30],
      cooldown_minutes: 10,
      callback_enabled: true,
    });
  });

  it.each([
    ['a missing name', { name: undefined }, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a missing agent_id', { agent_id: undefined }, 'agent_id'],
    ['an agent_id that is not a UUID', { agent_id: 'agent-1' }, 'agent_id'],
    ['concurrency_limit 0', { concurrency_limit: 0 }, 'concurrency_limit'],
    ['concurrency_limit 11', { concurrency_limit: 11 }, 'concurrency_limit'],
    ['a fractional concurrency_limit', { concurrency_limit: 2.5 }, 'concurrency_limit'],
    [
      'retry_concurrency above concurrency_limit',
      { concurrency_limit: 2, retry_concurrency: 3 },
      'retry_concurrency',
    ],
    ['a negative retry_concurrency', { retry_concurrency: -1 }, 'retry_concurrency'],
    ['a negative retry_count', { retry_count: -1 }, 'retry_count'],
    ['retry_count over 10', { retry_count: 11 }, 'retry_count'],
    ['retry_delays_minutes that are not integers', { retry_delays_minutes: [1.5] }, 'retry_delays_minutes'],
    ['retry_delays_minutes that are not an array', { retry_delays_minutes: 5 }, 'retry_delays_minutes'],
    ['a negative cooldown', { cooldown_minutes: -5 }, 'cooldown_minutes'],
    ['a non-boolean callback_enabled', { callback_enabled: 'yes' }, 'callback_enabled'],
    ['a type other than outbound', { type: 'inbound' }, 'type'],
    ['a malformed phone number id', { phone_number_ids: ['+14155550100'] }, 'phone_number_ids'],
    [
      'a repeated phone number id',
      {
        phone_number_ids: [
          'pn_0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b',
          'pn_0d7f4c1f-2b11-4a8e-9a55-3f0c6a0e6d0b',
        ],
      },
      'phone_number_ids',
    ],
    ['an unknown field', { colour: 'blue' }, 'colour'],
    ['a calling_window that is not an object', { calling_window: 'IN' }, 'calling_window'],
    ['an unknown calling window preset', { calling_window: { preset: 'XX' } }, 'preset'],
    [
      'a calling window start that is not HH:MM',
      { calling_window: { start: '25:00', end: '21:00', timezone: 'Asia/Kolkata' } },
      'start',
    ],
    [
      'a calling window that ends before it starts',
      { calling_window: { start: '21:00', end: '09:00', timezone: 'Asia/Kolkata' } },
      'calling_window.end',
    ],
    [
      'a calling window in an unknown time zone',
      { calling_window: { start: '09:00', end: '21:00', timezone: 'Mars/Olympus' } },
      'calling_window.timezone',
    ],
    [
      'a calling window without hours or a preset',
      { calling_window: { days: ['mon'] } },
      'calling_window.start',
    ],
    [
      'a calling window with an unknown day',
      { calling_window: { preset: 'IN', days: ['mon', 'funday'] } },
      'days',
    ],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_what, change, field) => {
    const body: Record<string, unknown> = { name: 'Bad', agent_id: partner.agent.id, ...change };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const res = await partner.call('/campaigns', { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
  });

  it('answers 404 for an agent or a caller ID that is not the account’s', async () => {
    const other = await CampaignsPartner.create();
    const agent = await partner.call('/campaigns', {
      method: 'POST',
      body: { name: 'X', agent_id: other.agent.id },
    });
    expect(agent.status).toBe(404);
    expect(agent.body.error.code).toBe('NOT_FOUND');
    const otherNumbers = await other.call('/phone-numbers');
    const number = await partner.call('/campaigns', {
      method: 'POST',
      body: {
        name: 'X',
        agent_id: partner.agent.id,
        phone_number_ids: [otherNumbers.body.data.phone_numbers[0].id],
      },
    });
    expect(number.status).toBe(404);
  });

  it('gets, lists newest first with cursors and filters by status', async () => {
    const fresh = await CampaignsPartner.create();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await fresh.createCampaign({ name: `C${i}` }));
    const one = await fresh.call(`/campaigns/${made[0].campaign_id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(made[0]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await fresh.call(`/campaigns?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.campaigns.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.campaigns.map((c: { campaign_id: string }) => c.campaign_id));
      cursor = res.body.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual(made.map((c) => c.campaign_id).reverse());

    await fresh.addContacts(made[1].campaign_id, [callee()]);
    expect((await fresh.start(made[1].campaign_id)).status).toBe(200);
    const running = await fresh.call('/campaigns?status=running');
    expect(running.body.data.campaigns.map((c: { campaign_id: string }) => c.campaign_id)).toEqual([
      made[1].campaign_id,
    ]);
    const drafts = await fresh.call('/campaigns?status=draft');
    expect(drafts.body.data.campaigns).toHaveLength(4);
    expect((await fresh.call('/campaigns?status=stopped')).status).toBe(400);
    expect((await fresh.call('/campaigns?limit=0')).status).toBe(400);
    expect((await fresh.call('/campaigns?cursor=not-a-cursor')).status).toBe(400);
  });

  it('updates a draft; running campaigns refuse updates with INVALID_STATE', async () => {
    const c = await partner.createCampaign({ concurrency_limit: 3, retry_concurrency: 1 });
    const patched = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: {
        name: 'Renamed',
        retry_count: 2,
        retry_delays_minutes: [1],
        cooldown_minutes: 3,
        description: 'd',
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      name: 'Renamed',
      retry_count: 2,
      retry_delays_minutes: [1],
      cooldown_minutes: 3,
      description: 'd',
      concurrency_limit: 3,
    });
    const bad = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { concurrency_limit: 0 },
    });
    expect(bad.status).toBe(400);
    // retry_concurrency is judged against the stored concurrency_limit.
    const above = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { retry_concurrency: 4 },
    });
    expect(above.status).toBe(400);
    expect(above.body.error.message).toContain('retry_concurrency');
    const type = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { type: 'outbound' },
    });
    expect(type.status).toBe(400);
    // A calling window override is set, kept by other changes, and cleared with null.
    const windowed = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { calling_window: { preset: 'IN' } },
    });
    expect(windowed.body.data.calling_window).toEqual({
      preset: 'IN',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start: '09:00',
      end: '21:00',
      timezone: 'Asia/Kolkata',
    });
    const kept = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { name: 'Kept' },
    });
    expect(kept.body.data.calling_window).toMatchObject({ preset: 'IN' });
    const cleared = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { calling_window: null, name: 'Renamed' },
    });
    expect(cleared.body.data.calling_window).toBeNull();

    await partner.addContacts(c.campaign_id, [callee()]);
    expect((await partner.start(c.campaign_id)).status).toBe(200);
    const refused = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { name: 'Late' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: 'only draft or paused campaigns can be updated',
    });
    const deleting = await partner.call(`/campaigns/${c.campaign_id}`, { method: 'DELETE' });
    expect(deleting.status).toBe(409);
    expect(deleting.body.error.code).toBe('INVALID_STATE');
    expect((await partner.call(`/campaigns/${c.campaign_id}/pause`, { method: 'POST' })).status).toBe(200);
    const whilePaused = await partner.call(`/campaigns/${c.campaign_id}`, {
      method: 'PATCH',
      body: { concurrency_limit: 5 },
    });
    expect(whilePaused.status).toBe(200);
    expect(whilePaused.body.data.concurrency_limit).toBe(5);
    const removed = await partner.call(`/campaigns/${c.campaign_id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ campaign_id: c.campaign_id, deleted: true });
  });

  it('deletes a draft; afterwards it is 404', async () => {
    const c = await partner.createCampaign();
    expect((await partner.call(`/campaigns/${c.campaign_id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await partner.call(`/campaigns/${c.campaign_id}`)).status).toBe(404);
    expect((await partner.call(`/campaigns/${c.campaign_id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('answers 404 on every route for another account’s campaign', async () => {
    const c = await partner.createCampaign();
    await partner.addContacts(c.campaign_id, [callee()]);
    const { apiKey: otherKey } = await createPartner({ balance_inr: 100 });
    const routes: [string, string, unknown?][] = [
      ['GET', ''],
      ['PATCH', '', { name: 'Mine' }],
      ['DELETE', ''],
      ['POST', '/start', {}],
      ['POST', '/pause'],
      ['POST', '/resume'],
      ['POST', '/contacts', { contacts: [{ phone_number: callee() }] }],
      ['GET', '/contacts'],
    ];
    for (const [method, path, body] of routes) {
      const res = await api(`/campaigns/${c.campaign_id}${path}`, { method, key: otherKey, body });
      expect({ route: `${method} ${path}`, status: res.status, code: res.body.error?.code }).toEqual({
        route: `${method} ${path}`,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    const list = await api('/campaigns', { key: otherKey });
    expect(list.body.data.campaigns).toEqual([]);
    expect((await partner.campaign(c.campaign_id)).status).toBe('draft');
    const missing = await partner.call('/campaigns/cmp_00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(UUID.test(partner.agent.id)).toBe(true);
  });

  it('documents every campaign route in the OpenAPI output', async () => {
    const res = await api('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    expect(Object.keys(paths['/api/v2/campaigns']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v2/campaigns/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    for (const action of ['start', 'pause', 'resume']) {
      expect(paths[`/api/v2/campaigns/{id}/${action}`].post.responses).toHaveProperty('409');
    }
    expect(paths['/api/v2/campaigns/{id}/start'].post.responses).toHaveProperty('403');
    expect(Object.keys(paths['/api/v2/campaigns/{id}/contacts']).sort()).toEqual(['get', 'post']);
    expect(JSON.stringify(paths['/api/v2/campaigns/{id}/contacts'].post)).toContain('text/csv');
    expect(res.body.components.schemas.CampaignDto.required).toEqual(expect.arrayContaining(CONTRACT_FIELDS));
  });
});
