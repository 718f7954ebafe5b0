import { get as httpGet } from 'node:http';
import { Client } from 'pg';
import { formatCsv, parseCsv } from '@vap/api';
import { waitFor } from '@vap/testing';
import { api, ApiResponse, e2eEnv } from '../../support';
import { CallsPartner, callee, EventTap } from './call-fixtures';

const DNC_ID = /^dnc_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A partner of the spec with its general-purpose key (the do-not-call routes share its per-minute budget). */
async function dnc(
  partner: CallsPartner,
  path: string,
  init: Parameters<typeof api>[1] = {},
): Promise<ApiResponse> {
  return api(`/do-not-call${path}`, { ...init, key: partner.generalKey });
}

describe('do-not-call list', () => {
  it('adds, reads, changes, lists and removes entries; refuses duplicates and bad input', async () => {
    const partner = await CallsPartner.create();
    const number = callee('77');
    const created = await dnc(partner, '', {
      method: 'POST',
      body: { number, reason: 'opt_out', note: 'asked twice' },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      kind: 'number',
      number,
      prefix: null,
      reason: 'opt_out',
      source: 'api',
      note: 'asked twice',
    });
    const id = created.body.data.id as string;
    expect(id).toMatch(DNC_ID);

    const again = await dnc(partner, '', { method: 'POST', body: { number, reason: 'manual' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');

    for (const body of [
      { reason: 'opt_out' },
      { number, prefix: '+91', reason: 'opt_out' },
      { number: '98765', reason: 'opt_out' },
      { prefix: '91', reason: 'legal' },
      { number: callee('77'), reason: 'because' },
      { number: callee('77'), reason: 'manual', source: 's'.repeat(101) },
    ]) {
      const res = await dnc(partner, '', { method: 'POST', body });
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }

    const prefix = await dnc(partner, '', {
      method: 'POST',
      body: { prefix: '+1900', reason: 'legal', source: 'regulator' },
    });
    expect(prefix.body.data).toMatchObject({
      kind: 'prefix',
      number: null,
      prefix: '+1900',
      source: 'regulator',
    });

    expect((await dnc(partner, `/${id}`)).body.data).toEqual(created.body.data);
    const changed = await dnc(partner, `/${id}`, {
      method: 'PATCH',
      body: { reason: 'complaint', note: null },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id, number, reason: 'complaint', note: null });
    for (const field of ['reason', 'source']) {
      const cleared = await dnc(partner, `/${id}`, { method: 'PATCH', body: { [field]: null } });
      expect({ field, status: cleared.status, code: cleared.body.error?.code }).toEqual({
        field,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }

    const first = await dnc(partner, '?limit=1');
    expect(first.body.data.entries.map((e: { id: string }) => e.id)).toEqual([prefix.body.data.id]);
    const second = await dnc(partner, `?limit=1&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    expect(second.body.data).toMatchObject({ entries: [{ id }], next_cursor: null });
    expect((await dnc(partner, '?reason=legal')).body.data.entries).toHaveLength(1);
    expect((await dnc(partner, '?kind=number')).body.data.entries.map((e: { id: string }) => e.id)).toEqual([
      id,
    ]);
    expect((await dnc(partner, '?reason=sometimes')).status).toBe(400);

    const removed = await dnc(partner, `/${id}`, { method: 'DELETE' });
    expect(removed.body.data).toMatchObject({ id, deleted: true });
    expect((await dnc(partner, `/${id}`)).status).toBe(404);
    expect((await dnc(partner, `/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await dnc(partner, '/dnc_not-an-id')).status).toBe(404);
  });

  it('keeps each account’s list its own: another account’s entry is 404 and does not cover its dials', async () => {
    const owner = await CallsPartner.create();
    const other = await CallsPartner.create();
    const number = callee('77');
    const entry = (await dnc(owner, '', { method: 'POST', body: { number, reason: 'legal' } })).body.data;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await dnc(other, `/${entry.id}`, {
        method,
        body: method === 'PATCH' ? { note: 'x' } : undefined,
      });
      expect({ method, status: res.status, code: res.body.error.code }).toEqual({
        method,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    expect((await dnc(other, '')).body.data.entries).toEqual([]);
    expect((await dnc(other, `/lookup?number=${encodeURIComponent(number)}`)).body.data).toEqual({
      number,
      listed: false,
      matches: [],
    });
    // The owner's entry is still there, unchanged.
    expect((await dnc(owner, `/${entry.id}`)).body.data).toEqual(entry);
  });

  it('looks numbers up through their own entry and every prefix, longest first', async () => {
    const partner = await CallsPartner.create();
    const number = '+19005550123';
    const own = (await dnc(partner, '', { method: 'POST', body: { number, reason: 'opt_out' } })).body.data;
    const area = (await dnc(partner, '', { method: 'POST', body: { prefix: '+1900', reason: 'legal' } })).body
      .data;
    const lookup = await dnc(partner, `/lookup?number=${encodeURIComponent(number)}`);
    expect(lookup.body.data).toEqual({ number, listed: true, matches: [own, area] });
    const neighbour = await dnc(partner, `/lookup?number=${encodeURIComponent('+19005550124')}`);
    expect(neighbour.body.data).toMatchObject({ listed: true, matches: [area] });
    const elsewhere = await dnc(partner, `/lookup?number=${encodeURIComponent('+19015550123')}`);
    expect(elsewhere.body.data).toMatchObject({ listed: false, matches: [] });
    // An unencoded + arrives as a space and is read as +.
    expect((await dnc(partner, `/lookup?number=${number}`)).body.data).toMatchObject({
      number,
      listed: true,
    });
    expect((await dnc(partner, '/lookup?number=12345')).status).toBe(400);
    expect((await dnc(partner, '/lookup')).status).toBe(400);
  });

  it('imports JSON and CSV with a report per row, and exports a CSV that imports back', async () => {
    const partner = await CallsPartner.create();
    const [a, b] = [callee('77'), callee('77')];
    const json = await dnc(partner, '/import', {
      method: 'POST',
      body: {
        entries: [
          { number: a, reason: 'opt_out' },
          { prefix: '+4420', reason: 'legal', source: 'ofcom', note: 'London, "all"' },
          { number: a, reason: 'manual' },
          { number: 'not-a-number', reason: 'opt_out' },
          { reason: 'opt_out' },
          { number: b, prefix: '+44', reason: 'opt_out' },
          { number: b, reason: 'whenever' },
        ],
      },
    });
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual({
      added: 2,
      already_listed: 1,
      rejected: 4,
      rows: [
        { row: 1, status: 'added', error: null },
        { row: 2, status: 'added', error: null },
        { row: 3, status: 'already_listed', error: null },
        { row: 4, status: 'rejected', error: 'invalid_number' },
        { row: 5, status: 'rejected', error: 'missing_number' },
        { row: 6, status: 'rejected', error: 'number_and_prefix' },
        { row: 7, status: 'rejected', error: 'invalid_reason' },
      ],
    });

    const csv = await dnc(partner, '/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: `Number,reason,note\r\n${b},complaint,"said ""never"", then hung up"\r\n${a},opt_out,\r\n+12,legal,\r\n`,
    });
    expect(csv.status).toBe(200);
    expect(csv.body.data).toMatchObject({ added: 1, already_listed: 1, rejected: 1 });
    expect(csv.body.data.rows[2]).toEqual({ row: 3, status: 'rejected', error: 'invalid_number' });

    const badHeader = await dnc(partner, '/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: `phone,why\r\n${a},opt_out\r\n`,
    });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'csv' }] });
    const empty = await dnc(partner, '/import', { method: 'POST', body: { entries: [] } });
    expect(empty.status).toBe(400);
    const xml = await dnc(partner, '/import', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<entries/>',
    });
    expect(xml.status).toBe(415);

    const exported = await dnc(partner, '/export', { headers: { accept: 'text/csv' } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="do-not-call.csv"');
    const lines = (exported.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('number,prefix,reason,source,note,created_at');
    // Oldest first: the CSV import's entry after the JSON import's two (listed in one transaction, same time).
    const cells = lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','));
    expect(cells.slice(0, 2).sort()).toEqual([',+4420,legal,ofcom', `${a},,opt_out,import`].sort());
    expect(cells[2]).toBe(`${b},,complaint,import`);
    expect(lines.find((l) => l.includes('+4420'))).toContain('"London, ""all"""');

    const back = await dnc(partner, '/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: exported.body as string,
    });
    expect(back.body.data).toMatchObject({ added: 0, already_listed: 3, rejected: 0 });
  });
});

describe('do-not-call export in a spreadsheet', () => {
  it('writes notes that a spreadsheet would run as formulas as text, and imports them back as they were', async () => {
    const [owner, other] = [await CallsPartner.create(), await CallsPartner.create()];
    const notes = ['=HYPERLINK("http://evil.example","x")', '+1+1', '@SUM(A1)', "'=already quoted", 'plain'];
    const entries = notes.map((note) => ({ number: callee('77'), reason: 'manual', note }));
    const imported = await dnc(owner, '/import', { method: 'POST', body: { entries } });
    expect(imported.body.data).toMatchObject({ added: notes.length, rejected: 0 });

    const exported = await dnc(owner, '/export', { headers: { accept: 'text/csv' } });
    const text = exported.body as string;
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toContain(",'+1+1,");
    expect(text).toContain(",'@SUM(A1),");
    expect(text).toContain(",''=already quoted,");
    expect(text).toContain(',plain,');
    // No cell of a note starts a formula.
    expect(text).not.toMatch(/,"?[=+@]/);

    const back = await dnc(other, '/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: text,
    });
    expect(back.body.data).toMatchObject({ added: notes.length, rejected: 0 });
    for (const { number, note } of entries) {
      const found = await dnc(other, `/lookup?number=${encodeURIComponent(number)}`);
      expect(found.body.data.matches).toEqual([expect.objectContaining({ number, note })]);
    }
  });

  it('writes sources that a spreadsheet would run as formulas as text too, and imports them back as they were', async () => {
    const [owner, other] = [await CallsPartner.create(), await CallsPartner.create()];
    const sources = ["=cmd|' /C calc'!A0", '+crm', '-sync', '@import', "'=already quoted", 'crm-sync'];
    const entries = sources.map((source) => ({ number: callee('77'), reason: 'manual', source }));
    const imported = await dnc(owner, '/import', { method: 'POST', body: { entries } });
    expect(imported.body.data).toMatchObject({ added: sources.length, rejected: 0 });

    const exported = await dnc(owner, '/export', { headers: { accept: 'text/csv' } });
    const rows = parseCsv(exported.body as string).slice(1);
    expect(rows.map((cells) => [cells[0], cells[3]])).toEqual(
      expect.arrayContaining(
        entries.map(({ number, source }) => [number, source === 'crm-sync' ? source : `'${source}`]),
      ),
    );
    // No cell but the number (E.164 starts with +) starts a formula.
    for (const cells of rows) for (const cell of cells.slice(1)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    const back = await dnc(other, '/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: exported.body as string,
    });
    expect(back.body.data).toMatchObject({ added: sources.length, rejected: 0 });
    for (const { number, source } of entries) {
      const found = await dnc(other, `/lookup?number=${encodeURIComponent(number)}`);
      expect(found.body.data.matches).toEqual([expect.objectContaining({ number, source })]);
    }
  });
});

describe('do-not-call lists of any size', () => {
  // 3,800 entries with 480-character notes: a 1.9 MB CSV to import and a 2 MB list to export, each twice
  // what one NATS message may carry.
  const ROWS = 3_800;
  const noteOf = (i: number) => {
    const head = `row ${i}, "quoted",\r\nsecond line `;
    return head + 'x'.repeat(480 - head.length);
  };
  let partner: CallsPartner;
  let numbers: string[];

  beforeAll(async () => {
    partner = await CallsPartner.create();
    numbers = Array.from({ length: ROWS }, () => callee('55'));
  });

  /** The export's gauge on the gateway: exports being written. */
  async function exportsInProgress(): Promise<number> {
    const text = await (await fetch(`${e2eEnv().gatewayUrl}/metrics`)).text();
    const value = /^vap_do_not_call_exports_in_progress(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1];
    if (value === undefined) throw new Error('no vap_do_not_call_exports_in_progress on /metrics');
    return Number(value);
  }

  it('imports a 1.9 MB CSV in one request, with quoted line breaks, and a report for every row', async () => {
    const csv = formatCsv([
      ['number', 'reason', 'source', 'note'],
      ...numbers.map((number, i) => [number, 'complaint', 'crm-sync', noteOf(i)]),
    ]);
    expect(Buffer.byteLength(csv)).toBeGreaterThan(1_900_000);
    expect(Buffer.byteLength(csv)).toBeLessThan(2 * 1024 * 1024);
    const res = await dnc(partner, '/import', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 200, code: undefined });
    expect(res.body.data).toMatchObject({ added: ROWS, already_listed: 0, rejected: 0 });
    expect(res.body.data.rows.map((r: { row: number }) => r.row)).toEqual(
      Array.from({ length: ROWS }, (_, i) => i + 1),
    );
    for (const i of [0, ROWS - 1]) {
      const found = await dnc(partner, `/lookup?number=${encodeURIComponent(numbers[i])}`);
      expect(found.body.data.matches).toEqual([
        expect.objectContaining({
          number: numbers[i],
          reason: 'complaint',
          source: 'crm-sync',
          note: noteOf(i),
        }),
      ]);
    }
  });

  it('exports the 2 MB list in one streamed response', async () => {
    const res = await dnc(partner, '/export', { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(res.body as string);
    expect(header).toEqual(['number', 'prefix', 'reason', 'source', 'note', 'created_at']);
    expect(rows).toHaveLength(ROWS);
    expect(rows.map((cells) => cells[0]).sort()).toEqual([...numbers].sort());
    const at = new Map(numbers.map((number, i) => [number, i]));
    expect(rows.filter((cells) => cells[4] !== noteOf(at.get(cells[0])!))).toEqual([]);
  });

  it('stops writing an export whose client went away, and serves the next one whole', async () => {
    const url = new URL(`${e2eEnv().gatewayUrl}/api/v2/do-not-call/export`);
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = httpGet(url, { headers: { authorization: `Bearer ${partner.generalKey}` } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`the export answered ${res.statusCode}`));
          // The first bytes, then the client hangs up with the rest of the list unread.
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', () => undefined);
      });
    }
    await waitFor(async () => (await exportsInProgress()) === 0, {
      timeoutMs: 20_000,
      description: 'the aborted exports to end',
    });
    const whole = await dnc(partner, '/export', { headers: { accept: 'text/csv' } });
    expect(whole.status).toBe(200);
    expect(parseCsv(whole.body as string)).toHaveLength(ROWS + 1);
  });
});

describe('do-not-call on dials', () => {
  let tap: EventTap;

  beforeAll(async () => {
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('refuses POST /calls/start to a listed number or prefix with DO_NOT_CALL, dials nothing, and logs the decision', async () => {
    const partner = await CallsPartner.create({ concurrency_limit: 5 });
    const agent = await partner.createAgent();
    const number = callee('99');
    const entry = (await dnc(partner, '', { method: 'POST', body: { number, reason: 'opt_out' } })).body.data;
    const area = (await dnc(partner, '', { method: 'POST', body: { prefix: '+4420', reason: 'legal' } })).body
      .data;

    const refused = await partner.start({ agent_id: agent.id, to_number: number });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('DO_NOT_CALL');
    expect(refused.body.error.message).toContain(entry.id);
    const byPrefix = await partner.start({ agent_id: agent.id, to_number: '+442071234567' });
    expect(byPrefix.status).toBe(409);
    expect(byPrefix.body.error.code).toBe('DO_NOT_CALL');

    const listed = await partner.calls(`?limit=100`);
    expect(listed.body.data.calls.filter((c: { to_number: string }) => c.to_number === number)).toEqual([]);

    const decisions = await api('/contact-policy/decisions', { key: partner.generalKey });
    expect(decisions.status).toBe(200);
    expect(decisions.body.data.decisions).toEqual([
      expect.objectContaining({
        number: '+442071234567',
        rule: 'do_not_call',
        outcome: 'refused',
        source: 'single_call',
        campaign_id: null,
        contact_id: null,
        do_not_call_id: area.id,
      }),
      expect.objectContaining({ number, rule: 'do_not_call', outcome: 'refused', do_not_call_id: entry.id }),
    ]);
    const one = await api(`/contact-policy/decisions?number=${encodeURIComponent(number)}&limit=1`, {
      key: partner.generalKey,
    });
    expect(one.body.data).toMatchObject({ decisions: [{ number }], next_cursor: null });
    const none = await api('/contact-policy/decisions?source=campaign', { key: partner.generalKey });
    expect(none.body.data.decisions).toEqual([]);
    expect((await api('/contact-policy/decisions?outcome=maybe', { key: partner.generalKey })).status).toBe(
      400,
    );

    // Off the list, the number is dialled again.
    await dnc(partner, `/${entry.id}`, { method: 'DELETE' });
    const placed = await partner.start({ agent_id: agent.id, to_number: number });
    expect(placed.status).toBe(200);
    await tap.sessionCompleted(placed.body.data.call_id, 60_000);
  });

  it('refuses a dial whose number was listed while it waited for its admission', async () => {
    const partner = await CallsPartner.create({ concurrency_limit: 5 });
    const agent = await partner.createAgent();
    const number = callee('99');
    const lock = `calls:number:${partner.id}:${number}`;
    const sql = new Client({ connectionString: e2eEnv().databaseUrl });
    await sql.connect();
    try {
      // Another admission to the number holds its lock: the dial passes its first checks, then waits for it.
      await sql.query('BEGIN');
      await sql.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lock]);
      const started = partner.start({ agent_id: agent.id, to_number: number });
      await waitFor(
        async () =>
          (
            await sql.query(
              `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                  AND objid = (hashtext($1)::bigint & 4294967295)::oid`,
              [lock],
            )
          ).rowCount,
        { timeoutMs: 15_000, description: 'the dial to wait for the number’s lock' },
      );
      // The callee opts out in the meantime (committed before the dial is admitted).
      const entry = await dnc(partner, '', { method: 'POST', body: { number, reason: 'opt_out' } });
      expect(entry.status).toBe(200);
      await sql.query('COMMIT');

      const refused = await started;
      expect({ status: refused.status, code: refused.body.error?.code }).toEqual({
        status: 409,
        code: 'DO_NOT_CALL',
      });
      expect(refused.body.error.message).toContain(entry.body.data.id);
      const listed = await partner.calls('?limit=100');
      expect(listed.body.data.calls.filter((c: { to_number: string }) => c.to_number === number)).toEqual([]);
      const decisions = await api(`/contact-policy/decisions?number=${encodeURIComponent(number)}`, {
        key: partner.generalKey,
      });
      expect(decisions.body.data.decisions).toEqual([
        expect.objectContaining({
          rule: 'do_not_call',
          outcome: 'refused',
          do_not_call_id: entry.body.data.id,
        }),
      ]);
    } finally {
      await sql.query('ROLLBACK').catch(() => undefined);
      await sql.end();
    }
  });
});
