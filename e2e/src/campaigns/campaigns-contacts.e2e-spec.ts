import { formatCsv } from '@vap/api';
import { api } from '../../support';
import { callee, CampaignsPartner } from './campaign-fixtures';

describe('campaign contacts: JSON and CSV uploads with a per-row report', () => {
  let partner: CampaignsPartner;

  beforeAll(async () => {
    partner = await CampaignsPartner.create();
  });

  const upload = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    partner.call(`/campaigns/${id}/contacts`, { method: 'POST', body, headers });

  it('accepts JSON rows and reports invalid numbers and duplicates row by row', async () => {
    const c = await partner.createCampaign();
    const [a, b] = [callee(), callee()];
    const res = await upload(c.campaign_id, {
      contacts: [
        { phone_number: a, variables: { customer_name: 'Asha' }, external_id: 'crm-1' },
        { phone_number: '9876543210' },
        { phone_number: b },
        { phone_number: a },
        { phone_number: '+12' },
        { variables: { x: 1 } },
        { phone_number: callee(), variables: ['not', 'an', 'object'] },
        { phone_number: callee(), external_id: 'x'.repeat(201) },
      ],
    });
    expect(res.status).toBe(200);
    const report = res.body.data;
    expect(report).toMatchObject({ accepted: 2, rejected: 6, total_contacts: 2 });
    expect(
      report.rows.map((r: { row: number; status: string; reason: string | null }) => [
        r.row,
        r.status,
        r.reason,
      ]),
    ).toEqual([
      [1, 'accepted', null],
      [2, 'rejected', 'invalid_number'],
      [3, 'accepted', null],
      [4, 'rejected', 'duplicate'],
      [5, 'rejected', 'invalid_number'],
      [6, 'rejected', 'invalid_number'],
      [7, 'rejected', 'invalid_variables'],
      [8, 'rejected', 'invalid_external_id'],
    ]);
    expect(report.rows[0]).toEqual({ row: 1, status: 'accepted', reason: null });

    // A second upload: numbers already in the campaign are duplicates.
    const again = await upload(c.campaign_id, {
      contacts: [{ phone_number: b }, { phone_number: callee() }],
    });
    expect(again.body.data).toMatchObject({ accepted: 1, rejected: 1, total_contacts: 3 });
    expect(again.body.data.rows[0]).toMatchObject({ status: 'rejected', reason: 'duplicate' });
    expect((await partner.campaign(c.campaign_id)).total_contacts).toBe(3);

    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts).toHaveLength(3);
    expect(contacts[0]).toEqual({
      contact_id: expect.stringMatching(/^cct_[0-9a-f-]{36}$/),
      phone_number: a,
      variables: { customer_name: 'Asha' },
      external_id: 'crm-1',
      status: 'pending',
      attempts: 0,
      call_ids: [],
      attempt_history: [],
      last_call_status: null,
      skip_reason: null,
      wait_reason: null,
      timezone: null,
      next_attempt_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('refuses a JSON body that is not a list of rows', async () => {
    const c = await partner.createCampaign();
    for (const body of [
      {},
      { contacts: [] },
      { contacts: 'x' },
      { contacts: [1] },
      { contacts: [{ phone_number: callee() }], extra: 1 },
    ]) {
      const res = await upload(c.campaign_id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const tooMany = await upload(c.campaign_id, {
      contacts: Array.from({ length: 10_001 }, () => ({ phone_number: '+919876543210' })),
    });
    expect(tooMany.status).toBe(400);
  });

  it('reads text/csv: header, quoted fields, variables from extra columns', async () => {
    const c = await partner.createCampaign();
    const [a, b] = [callee(), callee()];
    const csv = [
      'phone_number,customer_name,external_id,note',
      `${a},"Asha, Jr.",crm-7,"said ""call later"""`,
      `not-a-number,Ravi,,`,
      `${b},Meera,,`,
      `${a},Again,,`,
      '',
    ].join('\r\n');
    const res = await upload(c.campaign_id, csv, { 'content-type': 'text/csv; charset=utf-8' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 2, rejected: 2, total_contacts: 2 });
    expect(res.body.data.rows.map((r: { status: string; reason: string | null }) => r.reason)).toEqual([
      null,
      'invalid_number',
      null,
      'duplicate',
    ]);
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.map((k) => [k.phone_number, k.variables, k.external_id])).toEqual([
      [a, { customer_name: 'Asha, Jr.', note: 'said "call later"' }, 'crm-7'],
      [b, { customer_name: 'Meera', note: '' }, null],
    ]);
  });

  it('refuses a CSV without a phone_number header, an empty CSV, other content types and oversize bodies', async () => {
    const c = await partner.createCampaign();
    const noHeader = await upload(c.campaign_id, 'name\nAsha\n', { 'content-type': 'text/csv' });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.error.message).toContain('phone_number');
    const empty = await upload(c.campaign_id, 'phone_number\n', { 'content-type': 'text/csv' });
    expect(empty.status).toBe(400);
    const plain = await upload(c.campaign_id, 'phone_number\n+919876543210\n', {
      'content-type': 'text/plain',
    });
    expect(plain.status).toBe(415);
    expect(plain.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = `phone_number,blob\n+919876543210,${'x'.repeat(2.1 * 1024 * 1024)}\n`;
    const tooBig = await upload(c.campaign_id, big, { 'content-type': 'text/csv' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    // text/csv is allowed on the contacts route only.
    const elsewhere = await api('/campaigns', {
      method: 'POST',
      key: partner.key,
      body: 'name\nx\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(elsewhere.status).toBe(415);
  });

  it('lists contacts in upload order with cursors and a status filter', async () => {
    const c = await partner.createCampaign();
    const numbers = Array.from({ length: 7 }, () => callee());
    await partner.addContacts(c.campaign_id, numbers);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await partner.call(
        `/campaigns/${c.campaign_id}/contacts?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data.contacts.map((k: { phone_number: string }) => k.phone_number));
      cursor = res.body.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual(numbers);
    const pending = await partner.call(`/campaigns/${c.campaign_id}/contacts?status=pending&limit=100`);
    expect(pending.body.data.contacts).toHaveLength(7);
    const done = await partner.call(`/campaigns/${c.campaign_id}/contacts?status=completed`);
    expect(done.body.data.contacts).toHaveLength(0);
    expect((await partner.call(`/campaigns/${c.campaign_id}/contacts?status=bogus`)).status).toBe(400);
  });

  it('takes a full upload of 10,000 CSV rows and reports every row', async () => {
    const c = await partner.createCampaign();
    const rows = Array.from({ length: 10_000 }, (_, i) => `+9171${String(i).padStart(8, '0')}77,Name ${i}`);
    const res = await upload(c.campaign_id, ['phone_number,customer_name', ...rows].join('\n'), {
      'content-type': 'text/csv',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 10_000, rejected: 0, total_contacts: 10_000 });
    expect(res.body.data.rows).toHaveLength(10_000);
    expect(res.body.data.rows[9_999]).toEqual({ row: 10_000, status: 'accepted', reason: null });
    const page = await partner.call(`/campaigns/${c.campaign_id}/contacts?limit=1`);
    expect(page.body.data.contacts[0]).toMatchObject({
      phone_number: '+91710000000077',
      variables: { customer_name: 'Name 0' },
    });
  });
});

describe('campaign contact uploads of any size the gateway accepts', () => {
  let partner: CampaignsPartner;

  beforeAll(async () => {
    partner = await CampaignsPartner.create();
  });

  const upload = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    partner.call(`/campaigns/${id}/contacts`, { method: 'POST', body, headers });

  // 9,000 rows of about 215 bytes, quoted commas and line breaks among them: a 1.9 MB CSV, twice what one
  // NATS message may carry.
  const ROWS = 9_000;
  const noteOf = (i: number) => {
    const head = `row ${i}, said "call later",\r\nsecond line `;
    return head + 'x'.repeat(160 - head.length);
  };
  const BIG_VARIABLES_ROW = 4_500;

  it('takes a 1.9 MB CSV in one request and reports every row as one transaction would', async () => {
    const c = await partner.createCampaign();
    const numbers = Array.from({ length: ROWS }, () => callee());
    numbers[1] = 'not-a-number';
    // The last row repeats the first: a duplicate of a row in another batch of the same upload.
    numbers[ROWS - 1] = numbers[0];
    const csv = formatCsv([
      ['phone_number', 'external_id', 'customer_name', 'note'],
      ...numbers.map((number, i) => [
        number,
        `crm-${i + 1}`,
        `Ásha ${i + 1}, Jr.`,
        // A variable past the per-contact bound: that row alone is rejected.
        i + 1 === BIG_VARIABLES_ROW ? 'y'.repeat(70 * 1024) : noteOf(i + 1),
      ]),
    ]);
    expect(Buffer.byteLength(csv)).toBeGreaterThan(1_900_000);
    expect(Buffer.byteLength(csv)).toBeLessThan(2 * 1024 * 1024);

    const res = await upload(c.campaign_id, csv, { 'content-type': 'text/csv' });
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 200, code: undefined });
    expect(res.body.data).toMatchObject({ accepted: ROWS - 3, rejected: 3, total_contacts: ROWS - 3 });
    const rows = res.body.data.rows as { row: number; status: string; reason: string | null }[];
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status === 'rejected')).toEqual([
      { row: 2, status: 'rejected', reason: 'invalid_number' },
      { row: BIG_VARIABLES_ROW, status: 'rejected', reason: 'invalid_variables' },
      { row: ROWS, status: 'rejected', reason: 'duplicate' },
    ]);
    expect((await partner.campaign(c.campaign_id)).total_contacts).toBe(ROWS - 3);
    const first = await partner.call(`/campaigns/${c.campaign_id}/contacts?limit=2`);
    expect(
      first.body.data.contacts.map((k: Record<string, unknown>) => [
        k.phone_number,
        k.external_id,
        k.variables,
      ]),
    ).toEqual([
      [numbers[0], 'crm-1', { customer_name: 'Ásha 1, Jr.', note: noteOf(1) }],
      [numbers[2], 'crm-3', { customer_name: 'Ásha 3, Jr.', note: noteOf(3) }],
    ]);

    // The same file again: every number is in the campaign already, whichever batch added it.
    const again = await upload(c.campaign_id, csv, { 'content-type': 'text/csv' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ accepted: 0, rejected: ROWS, total_contacts: ROWS - 3 });
    expect(
      (again.body.data.rows as { reason: string }[]).filter((r) => r.reason === 'duplicate'),
    ).toHaveLength(ROWS - 2);
  });

  it('takes a JSON upload just under BODY_LIMIT (1 MB)', async () => {
    const c = await partner.createCampaign();
    const contacts = Array.from({ length: 2_000 }, (_, i) => ({
      phone_number: callee(),
      variables: { customer_name: `Name ${i}`, note: '' },
    }));
    const bodyOf = () => JSON.stringify({ contacts });
    // Pad the notes until the body is a few bytes short of the 1,048,576-byte limit.
    const room = 1024 * 1024 - 40 - Buffer.byteLength(bodyOf());
    contacts.forEach((k, i) => {
      k.variables.note = 'n'.repeat(
        Math.floor(room / contacts.length) + (i < room % contacts.length ? 1 : 0),
      );
    });
    const body = bodyOf();
    expect(Buffer.byteLength(body)).toBe(1024 * 1024 - 40);

    const res = await upload(c.campaign_id, body, { 'content-type': 'application/json' });
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 200, code: undefined });
    expect(res.body.data).toMatchObject({ accepted: 2_000, rejected: 0, total_contacts: 2_000 });
    const [first] = (await partner.call(`/campaigns/${c.campaign_id}/contacts?limit=1`)).body.data.contacts;
    expect(first.variables).toEqual(contacts[0].variables);
  });

  it('lists contacts whose variables fill more than one message, in pages that NATS carries', async () => {
    const c = await partner.createCampaign();
    // 20 contacts with 60 KB of variables each, in two uploads that each fit in one message: a default page
    // of 20 would be a 1.2 MB reply.
    const numbers = Array.from({ length: 20 }, () => callee());
    const notesOf = (i: number) => `${i}:${'v'.repeat(60 * 1024)}`;
    for (const half of [0, 10]) {
      const contacts = numbers
        .slice(half, half + 10)
        .map((phone_number, i) => ({ phone_number, variables: { notes: notesOf(half + i) } }));
      const res = await upload(c.campaign_id, { contacts });
      expect(res.body.data).toMatchObject({ accepted: 10, rejected: 0 });
    }

    const seen: { phone_number: string; variables: Record<string, unknown> }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await partner.call(
        `/campaigns/${c.campaign_id}/contacts?limit=20${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect({ status: page.status, code: page.body.error?.code }).toEqual({ status: 200, code: undefined });
      expect(page.body.data.contacts.length).toBeGreaterThan(0);
      seen.push(...page.body.data.contacts);
      cursor = page.body.data.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBeGreaterThan(1);
    expect(seen.map((k) => [k.phone_number, k.variables])).toEqual(
      numbers.map((n, i) => [n, { notes: notesOf(i) }]),
    );
  });

  it('checks the campaign even when no row is valid', async () => {
    const missing = await upload('cmp_6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11', 'phone_number\nnope\n', {
      'content-type': 'text/csv',
    });
    expect({ status: missing.status, code: missing.body.error?.code }).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    const c = await partner.createCampaign();
    await partner.addContacts(c.campaign_id, [callee()]);
    const none = await upload(c.campaign_id, 'phone_number\nnope\n+12\n', { 'content-type': 'text/csv' });
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({
      accepted: 0,
      rejected: 2,
      total_contacts: 1,
      rows: [
        { row: 1, status: 'rejected', reason: 'invalid_number' },
        { row: 2, status: 'rejected', reason: 'invalid_number' },
      ],
    });
  });
});
