// GET/PUT/DELETE /agent/{id} and GET /agent: partial updates, listing, tenancy and soft delete.
import { NatsConnection } from 'nats';
import { Client } from 'pg';
import { api, ApiResponse, e2eEnv } from '../../support';
import {
  agentBody,
  createAgent,
  fieldsOf,
  newPartner,
  OFFICE_AMBIENCE,
  partnerKey,
  randomId,
  uniqueName,
  Voices,
} from './agent-fixtures';
import { command, natsProbe, waitForEvent } from './nats-probe';

describe('agents: read, update, list, delete', () => {
  let key: string;
  let partnerId: string;

  beforeAll(async () => {
    ({ id: partnerId, key } = await newPartner('standard'));
  });

  const put = (id: string, body: unknown, k = key) => api(`/agent/${id}`, { method: 'PUT', key: k, body });

  describe('GET /agent/{id}', () => {
    it('returns the record as created', async () => {
      const created = await createAgent(key);
      const res = await api(`/agent/${created.id}`, { key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: created });
    });

    it.each(['not-a-uuid', randomId()])('answers 404 NOT_FOUND for %s', async (id) => {
      const res = await api(`/agent/${id}`, { key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });
  });

  describe('PUT /agent/{id}', () => {
    it('changes only the fields sent and keeps the others', async () => {
      const created = await createAgent(key, {
        intro_message: 'Hi there',
        enable_recording: false,
        kb_threshold: 'low',
      });
      const res = await put(created.id, { prompt: 'A new prompt.', kb_include_summaries: true });
      expect(res.status).toBe(200);
      const updated = res.body.data;
      expect(updated).toEqual({
        ...created,
        prompt: 'A new prompt.',
        kb_include_summaries: true,
        updated_at: expect.any(String),
      });
      expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
      expect((await api(`/agent/${created.id}`, { key })).body.data).toEqual(updated);
    });

    it('gives null the meaning it has at creation', async () => {
      const created = await createAgent(key, {
        intro_message: 'Hi',
        max_call_duration_secs: 900,
        background_audio_id: OFFICE_AMBIENCE,
        background_audio_volume: 0.9,
        kb_threshold: 'high',
      });
      const res = await put(created.id, {
        intro_message: null,
        max_call_duration_secs: null,
        background_audio_id: null,
        background_audio_volume: null,
        kb_threshold: null,
        tool_ack_config: null,
        project_id: null,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        intro_message: null,
        max_call_duration_secs: null,
        background_audio_id: null,
        background_audio_volume: 0.3,
        kb_threshold: null,
        tool_ack_config: null,
        project_id: created.project_id,
      });
    });

    it('replaces tool_ack_config as a whole', async () => {
      const created = await createAgent(key, {
        tool_ack_config: { mode: 'static', phrases: ['Hold on.'], delay_ms: 200 },
      });
      const res = await put(created.id, { tool_ack_config: { enabled: true } });
      expect(res.body.data.tool_ack_config).toEqual({
        enabled: true,
        mode: 'dynamic',
        phrases: [],
        delay_ms: 1000,
      });
    });

    it('changes only the turn_taking fields sent and keeps the others; null puts back the defaults', async () => {
      const created = await createAgent(key, {
        turn_taking: {
          mode: 'patient',
          min_silence_ms: 600,
          max_silence_ms: 2000,
          ignore_backchannels: false,
        },
      });
      const res = await put(created.id, { turn_taking: { max_silence_ms: 2400 } });
      expect(res.status).toBe(200);
      expect(res.body.data.turn_taking).toEqual({
        mode: 'patient',
        min_silence_ms: 600,
        max_silence_ms: 2400,
        ignore_backchannels: false,
      });
      // Another field, or another turn_taking field, leaves the rest as stored.
      expect(
        (await put(created.id, { prompt: 'Shorter answers.' })).body.data.turn_taking.max_silence_ms,
      ).toBe(2400);
      const mode = await put(created.id, { turn_taking: { mode: 'balanced', min_silence_ms: null } });
      expect(mode.body.data.turn_taking).toEqual({
        mode: 'balanced',
        min_silence_ms: null,
        max_silence_ms: 2400,
        ignore_backchannels: false,
      });
      expect((await api(`/agent/${created.id}`, { key })).body.data.turn_taking).toEqual(
        mode.body.data.turn_taking,
      );
      const reset = await put(created.id, { turn_taking: null });
      expect(reset.body.data.turn_taking).toEqual({
        mode: 'balanced',
        min_silence_ms: null,
        max_silence_ms: null,
        ignore_backchannels: true,
      });
    });

    it('judges turn_taking bounds on the result: a mode whose maximum is below the stored minimum is refused', async () => {
      const created = await createAgent(key, { turn_taking: { min_silence_ms: 1000 } });
      // balanced allows 1000 ms (its maximum is 1500); fast's maximum is 900.
      const res = await put(created.id, { turn_taking: { mode: 'fast' } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toEqual(['turn_taking.min_silence_ms']);
      expect(res.body.error.message).toMatch(/turn_taking.min_silence_ms/);
      // A maximum under the stored minimum, too.
      const max = await put(created.id, { turn_taking: { max_silence_ms: 900 } });
      expect(max.status).toBe(400);
      expect(fieldsOf(max.body)).toEqual(['turn_taking.min_silence_ms']);
      expect((await api(`/agent/${created.id}`, { key })).body.data.turn_taking).toEqual(created.turn_taking);
      // Lowering the minimum in the same request makes it fit.
      const both = await put(created.id, { turn_taking: { mode: 'fast', min_silence_ms: 400 } });
      expect(both.status).toBe(200);
      expect(both.body.data.turn_taking).toMatchObject({ mode: 'fast', min_silence_ms: 400 });
    });

    it('takes back every writable field exactly as GET returned it (read, modify, write)', async () => {
      const created = await createAgent(key);
      const read = (await api(`/agent/${created.id}`, { key })).body.data;
      // The returned record minus what the server owns or derives (ids, times, status, voice, gender, lists).
      const owned = [
        'id',
        'status',
        'gender',
        'voice',
        'extraction_sets',
        'custom_functions',
        'documents',
        'created_at',
        'updated_at',
      ];
      const body = Object.fromEntries(Object.entries(read).filter(([k]) => !owned.includes(k)));
      expect(body.tool_ack_config).toMatchObject({ mode: 'dynamic', phrases: [] });
      const res = await put(created.id, { ...body, agent_name: `${read.agent_name} 2` });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...read,
        agent_name: `${read.agent_name} 2`,
        updated_at: expect.any(String),
      });
    });

    it('changes the voice and with it the gender', async () => {
      const created = await createAgent(key);
      const res = await put(created.id, { voice_id: Voices.abhilash });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        voice_id: Voices.abhilash,
        gender: 'male',
        voice: { display_name: 'Abhilash' },
      });
    });

    it('refuses a voice above the account’s tier', async () => {
      const created = await createAgent(key);
      const res = await put(created.id, { voice_id: Voices.priya });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['voice_id']);
    });

    it('stores and echoes webhooks_include_account_endpoints', async () => {
      const created = await createAgent(key);
      // false needs an enabled endpoint of the agent's own (the webhooks service judges the rule).
      const refused = await put(created.id, { webhooks_include_account_endpoints: false });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('NO_AGENT_ENDPOINT');
      const endpoint = await api(`/agent/${created.id}/webhooks`, {
        key,
        body: { label: `own-${randomId().slice(0, 8)}`, url: 'https://example.com/hooks' },
      });
      expect(endpoint.status).toBe(200);
      const res = await put(created.id, { webhooks_include_account_endpoints: false });
      expect(res.status).toBe(200);
      expect(res.body.data.webhooks_include_account_endpoints).toBe(false);
      expect((await api(`/agent/${created.id}`, { key })).body.data.webhooks_include_account_endpoints).toBe(
        false,
      );
    });

    it('judges rules between fields on the result', async () => {
      const created = await createAgent(key, { transfer_number: '+919876543210' });
      // The stored number satisfies transfer_enabled.
      expect((await put(created.id, { transfer_enabled: true })).status).toBe(200);
      // Clearing it while transfer is on is refused.
      const cleared = await put(created.id, { transfer_number: null });
      expect(cleared.status).toBe(400);
      expect(fieldsOf(cleared.body)).toEqual(['transfer_number']);
      // Screener handling on, then voicemail detection off: refused.
      expect((await put(created.id, { screener_handling_enabled: true })).status).toBe(200);
      const vm = await put(created.id, { voicemail_detection_enabled: false });
      expect(vm.status).toBe(400);
      expect(fieldsOf(vm.body)).toEqual(['screener_handling_enabled']);
      // Nothing of the refused updates was stored.
      expect((await api(`/agent/${created.id}`, { key })).body.data).toMatchObject({
        transfer_enabled: true,
        transfer_number: '+919876543210',
        voicemail_detection_enabled: true,
        screener_handling_enabled: true,
      });
    });

    it.each([
      ['agent_name', null],
      ['agent_name', ''],
      ['prompt', null],
      ['voice_id', null],
      ['agent_type', 'both'],
      ['enable_recording', null],
      ['spoken_languages', ['te', 'hi']],
      ['max_call_duration_secs', 30],
      ['background_audio_volume', 2],
      ['transfer_number', '12345'],
      ['webhooks_include_account_endpoints', 'no'],
      ['extraction_config', { keys: 'all' }],
      ['turn_taking', { mode: 'slow' }],
      ['turn_taking', { mode: null }],
      ['turn_taking', { min_silence_ms: 50 }],
      ['turn_taking', { max_silence_ms: 6000 }],
      ['turn_taking', { ignore_backchannels: 'no' }],
      ['turn_taking', { silence: 500 }],
      ['turn_taking', 'fast'],
      ['gender', 'male'],
      ['status', 'deleted'],
    ])('refuses %s = %j with 400 naming it', async (field, value) => {
      const created = await createAgent(key);
      const res = await put(created.id, { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body).some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
    });

    it('answers 409 CONFLICT when renaming onto another agent’s name, and allows keeping its own', async () => {
      const a = await createAgent(key);
      const b = await createAgent(key);
      const res = await put(b.id, { agent_name: a.agent_name });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect((await put(a.id, { agent_name: a.agent_name })).status).toBe(200);
    });

    it('answers 404 for an unknown agent', async () => {
      expect((await put(randomId(), { prompt: 'x' })).status).toBe(404);
    });
  });

  describe('GET /agent', () => {
    let listKey: string;
    const names: string[] = [];

    beforeAll(async () => {
      listKey = await partnerKey('standard');
      for (let i = 0; i < 5; i++) {
        const agent = await createAgent(listKey, {
          agent_name: `List ${i} ${uniqueName('n')}`,
          agent_type: i % 2 ? 'inbound' : 'outbound',
        });
        names.push(agent.agent_name);
      }
    });

    it('pages through every agent with limit and next_cursor, oldest first', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: ApiResponse = await api(
          `/agent?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key: listKey },
        );
        expect(res.status).toBe(200);
        expect(res.body.data.agents.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.agents.map((a: { agent_name: string }) => a.agent_name));
        cursor = res.body.data.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(names);
      expect(pages).toBe(3);
    });

    it('filters by agent_type, project_id and name', async () => {
      const inbound = await api('/agent?agent_type=inbound', { key: listKey });
      expect(inbound.body.data.agents.map((a: { agent_name: string }) => a.agent_name)).toEqual([
        names[1],
        names[3],
      ]);
      const search = await api(`/agent?search=${encodeURIComponent(names[2].slice(0, 6).toLowerCase())}`, {
        key: listKey,
      });
      expect(search.body.data.agents.map((a: { agent_name: string }) => a.agent_name)).toEqual([names[2]]);
      const all = await api('/agent', { key: listKey });
      const project = all.body.data.agents[0].project_id;
      expect((await api(`/agent?project_id=${project}`, { key: listKey })).body.data.agents).toHaveLength(5);
      // A project that is not the account's is 404, as on every project route.
      const unknown = await api(`/agent?project_id=${randomId()}`, { key: listKey });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
    });

    it('treats % and _ in search as plain characters', async () => {
      expect((await api('/agent?search=%25', { key: listKey })).body.data.agents).toHaveLength(0);
    });

    it.each(['limit=0', 'limit=101', 'agent_type=both', 'project_id=x', 'cursor=bogus', 'colour=red'])(
      'refuses ?%s with 400',
      async (query) => {
        const res = await api(`/agent?${query}`, { key: listKey });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      },
    );
  });

  describe('tenancy', () => {
    it("answers 404 for another account's agent on every route, and leaves it unchanged", async () => {
      const other = await partnerKey();
      const foreign = await createAgent(other);
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { prompt: 'hijacked' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await api(`/agent/${foreign.id}`, { method, key, body });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      expect(
        (await api('/agent', { key })).body.data.agents.some((a: { id: string }) => a.id === foreign.id),
      ).toBe(false);
      expect((await api(`/agent/${foreign.id}`, { key: other })).body.data.prompt).toBe(foreign.prompt);
    });
  });

  describe('DELETE /agent/{id}', () => {
    let nc: NatsConnection;

    beforeAll(async () => {
      nc = await natsProbe();
    });

    afterAll(async () => {
      await nc?.drain();
    });

    it('soft-deletes: every route naming the agent answers 404 and agent.deleted goes out', async () => {
      const agent = await createAgent(key);
      const set = await api('/extraction-sets', {
        method: 'POST',
        key,
        body: { name: uniqueName('Set'), keys: [] },
      });
      expect(
        (await api(`/agent/${agent.id}/extraction-sets/${set.body.data.id}`, { method: 'POST', key })).status,
      ).toBe(200);

      const res = await api(`/agent/${agent.id}`, { method: 'DELETE', key });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: agent.id, message: expect.any(String) });

      const routes: [string, string, unknown?][] = [
        ['GET', `/agent/${agent.id}`],
        ['PUT', `/agent/${agent.id}`, { prompt: 'again' }],
        ['DELETE', `/agent/${agent.id}`],
        ['POST', `/agent/${agent.id}/extraction-sets/${set.body.data.id}`],
        ['DELETE', `/agent/${agent.id}/extraction-sets/${set.body.data.id}`],
        ['POST', '/extraction-sets/from-agent', { agent_id: agent.id, name: uniqueName('Set') }],
      ];
      for (const [method, path, body] of routes) {
        const r = await api(path, { method, key, body });
        expect({ route: `${method} ${path}`, status: r.status, code: r.body.error?.code }).toEqual({
          route: `${method} ${path}`,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      expect(
        (await api('/agent', { key })).body.data.agents.some((a: { id: string }) => a.id === agent.id),
      ).toBe(false);
      // The set lost the attachment.
      expect((await api(`/extraction-sets/${set.body.data.id}`, { key })).body.data.attached_agents).toEqual(
        [],
      );

      const event = await waitForEvent<{ agent_id: string; agent_name: string }>(
        nc,
        'events.agent.deleted',
        (e) => e.data.agent_id === agent.id,
      );
      expect(event.partnerId).toBe(partnerId);
      expect(event.data).toMatchObject({
        agent_id: agent.id,
        agent_name: agent.agent_name,
        project_id: agent.project_id,
      });

      // Other services see it as gone too.
      const reply = await command(nc, 'agents.agent.get', event.partnerId, { id: agent.id });
      expect(reply).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', status: 404 } });
    });

    it('frees the name for a new agent', async () => {
      const agent = await createAgent(key);
      await api(`/agent/${agent.id}`, { method: 'DELETE', key });
      expect(
        (await api('/agent', { method: 'POST', key, body: agentBody({ agent_name: agent.agent_name }) }))
          .status,
      ).toBe(200);
    });

    it('records agent.created and agent.updated in the outbox with the record', async () => {
      const agent = await createAgent(key);
      await put(agent.id, { prompt: 'Changed.' });
      const db = new Client({ connectionString: e2eEnv().databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query(
          `SELECT subject, event FROM agents.outbox WHERE event->'data'->>'id' = $1 ORDER BY created_at`,
          [agent.id],
        );
        expect(rows.map((r) => r.subject)).toEqual(['events.agent.created', 'events.agent.updated']);
        expect(rows[1].event.data.prompt).toBe('Changed.');
      } finally {
        await db.end();
      }
    });
  });

  describe('agents.agent.get (internal)', () => {
    it('answers the record for the owner and 404 for anyone else', async () => {
      const nc = await natsProbe();
      try {
        const agent = await createAgent(key);
        expect(await command(nc, 'agents.agent.get', partnerId, { id: agent.id })).toEqual({
          ok: true,
          data: agent,
        });
        expect(await command(nc, 'agents.agent.get', randomId(), { id: agent.id })).toMatchObject({
          ok: false,
          error: { code: 'NOT_FOUND' },
        });
      } finally {
        await nc.drain();
      }
    });
  });
});
