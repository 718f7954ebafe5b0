// Custom functions through the gateway: CRUD and its rules, secrets (signing secret once, headers sealed and
// masked, rotation), attaching to agents and the agent record, tenancy, POST /custom-functions/{id}/test
// against a partner's HTTPS server faked here, agents.custom_function.invoke as the voice service sends it,
// and the private-network guard on a platform of the spec's own that does not allow private addresses.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { NatsConnection } from 'nats';
import { Client } from 'pg';
import { IntegrationLogId } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { api, createPartner, e2eEnv, OwnPlatform, startOwnPlatform } from '../../support';
import { callee } from '../calls/call-fixtures';
import { createAgent, fieldsOf, newPartner, partnerKey, uniqueName } from './agent-fixtures';
import { FunctionServer, signatureValid, startFunctionServer } from './function-server';
import { command, natsProbe } from './nats-probe';

const MASK = '********';

const fnName = () => uniqueName('fn').replace(' ', '_');

/**
 * What /test answers (and the integration log keeps) for every failure before a connection was made: a private
 * address, a name that does not resolve, a closed port. Latency and log id aside, one answer for all.
 */
const CONNECT_FAILED =
  'could not connect: the address did not resolve to a public server that accepted the connection';
const CONNECT_FAILED_ANSWER = {
  outcome: 'refused',
  status: null,
  response_excerpt: '',
  error: CONNECT_FAILED,
  variables: {},
  logged: { outcome: 'refused', error: CONNECT_FAILED, status: null },
};

/** A loopback port nothing listens on: bound, then closed. */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('custom functions', () => {
  let key: string;
  let partnerId: string;
  let otherKey: string;
  let server: FunctionServer;
  let db: Client;
  let nc: NatsConnection;

  beforeAll(async () => {
    ({ id: partnerId, key } = await newPartner());
    otherKey = await partnerKey();
    server = await startFunctionServer();
    db = new Client({ connectionString: e2eEnv().databaseUrl });
    await db.connect();
    nc = await natsProbe();
  });

  afterAll(async () => {
    await server?.close();
    await db?.end();
    await nc?.close();
  });

  const body = (over: Record<string, unknown> = {}) => ({
    name: fnName(),
    description: 'Looks up an order by its number',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
      required: ['order_id'],
      additionalProperties: false,
    },
    url: `${server.url}/orders`,
    headers: { Authorization: 'Bearer partner-token-123', 'X-Tenant': 'acme' },
    response_variables: { order_status: '$.order.status', first_item: '$.order.items[0]["item name"]' },
    ...over,
  });
  const create = async (over: Record<string, unknown> = {}, k = key): Promise<Any> => {
    const res = await api('/custom-functions', { method: 'POST', key: k, body: body(over) });
    if (res.status !== 200)
      throw new Error(`POST /custom-functions answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const test = (id: string, args: unknown, k = key) =>
    api(`/custom-functions/${id}/test`, {
      method: 'POST',
      key: k,
      body: args === undefined ? {} : { arguments: args },
    });
  const requestsTo = (path: string) =>
    server.requests.filter((r) => new URL(r.url, 'https://x').pathname === path);

  describe('CRUD and secrets', () => {
    it('creates a function, shows its signing secret once and its header values never', async () => {
      const input = body({
        async: true,
        speech: { on_start: 'One moment.', on_failure: 'Sorry, that failed.' },
      });
      const res = await api('/custom-functions', { method: 'POST', key, body: input });
      expect(res.status).toBe(200);
      const created = res.body.data;
      expect(created).toEqual({
        id: expect.stringMatching(/^fn_[0-9a-f-]{36}$/),
        name: input.name,
        description: input.description,
        parameters: input.parameters,
        url: input.url,
        method: 'POST',
        headers: { Authorization: MASK, 'X-Tenant': MASK },
        timeout_ms: 10_000,
        speech: {
          on_start: 'One moment.',
          on_delay: null,
          delay_ms: 2000,
          on_failure: 'Sorry, that failed.',
        },
        response_variables: input.response_variables,
        async: true,
        auth: null,
        attached_agents: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        signing_secret: expect.stringMatching(/^fnsec_[A-Za-z0-9_-]{43}$/),
      });
      // The schema keeps the partner's key order.
      expect(JSON.stringify(created.parameters)).toBe(JSON.stringify(input.parameters));
      const { signing_secret: secret, ...record } = created;
      const read = await api(`/custom-functions/${created.id}`, { key });
      expect(read.body.data).toEqual(record);
      const listed = await api('/custom-functions?limit=100', { key });
      const row = listed.body.data.custom_functions.find((f: Any) => f.id === created.id);
      expect(row).toEqual(record);
      expect(JSON.stringify([read.body, listed.body])).not.toContain('partner-token-123');
      expect(JSON.stringify([read.body, listed.body])).not.toContain(secret);

      // Stored sealed: neither the header value nor the secret is in the row.
      const stored = await db.query(
        'SELECT headers_sealed, signing_secret_sealed, header_names FROM agents.custom_functions WHERE id = $1',
        [created.id],
      );
      expect(stored.rows[0].header_names).toEqual(['Authorization', 'X-Tenant']);
      expect(stored.rows[0].headers_sealed).toMatch(/^v1\./);
      expect(JSON.stringify(stored.rows[0])).not.toContain('partner-token-123');
      expect(JSON.stringify(stored.rows[0])).not.toContain(secret);
    });

    it('takes the defaults for what is left out', async () => {
      const res = await api('/custom-functions', {
        method: 'POST',
        key,
        body: { name: fnName(), description: 'No arguments', url: `${server.url}/ping` },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        parameters: { type: 'object', properties: {} },
        method: 'POST',
        headers: {},
        timeout_ms: 10_000,
        speech: { on_start: null, on_delay: null, delay_ms: 2000, on_failure: null },
        response_variables: {},
        async: false,
      });
    });

    it.each([
      ['a schema that is not of type object', { parameters: { type: 'string' } }, 'parameters'],
      [
        'a schema that does not compile',
        { parameters: { type: 'object', properties: { a: { type: 'nope' } } } },
        'parameters',
      ],
      [
        'a schema with a regular expression',
        { parameters: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } } },
        'parameters',
      ],
      ['parameters that are not an object', { parameters: 'object' }, 'parameters'],
      ['a plain http URL', { url: 'http://api.example.com/orders' }, 'url'],
      ['a URL with credentials', { url: 'https://user:pw@api.example.com/orders' }, 'url'],
      ['a built-in tool name', { name: 'transfer_call' }, 'name'],
      ['a name the model cannot call', { name: 'check order' }, 'name'],
      ['an unknown method', { method: 'TRACE' }, 'method'],
      ['a header the platform sets', { headers: { 'X-Vap-Signature': 'forged' } }, 'headers'],
      ['a header value with a line break', { headers: { 'X-A': 'a\r\nInjected: 1' } }, 'headers'],
      [
        'a JSON path outside the subset',
        { response_variables: { status: '$..status' } },
        'response_variables',
      ],
      ['a timeout over 120 s', { timeout_ms: 120_001 }, 'timeout_ms'],
      ['a delay under 500 ms', { speech: { on_delay: 'Still on it.', delay_ms: 10 } }, 'speech.delay_ms'],
      ['an unknown field', { callback: 'x' }, 'callback'],
    ])('refuses %s with 400 VALIDATION_ERROR', async (_what, over, field) => {
      const res = await api('/custom-functions', { method: 'POST', key, body: body(over) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toContain(field);
    });

    it('refuses a bad body shape with 400 and a missing required field', async () => {
      for (const bad of [[], 'text', 42, null]) {
        const res = await api('/custom-functions', {
          method: 'POST',
          key,
          body: JSON.stringify(bad),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
      const res = await api('/custom-functions', { method: 'POST', key, body: { name: fnName() } });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(expect.arrayContaining(['description', 'url']));
    });

    it('refuses a schema that would run a regular expression or reach another document, at any depth', async () => {
      const redos = { type: 'string', pattern: '^(a+)+$' };
      const hostile: Record<string, unknown>[] = [
        { type: 'object', dependencies: { a: { properties: { b: redos } } } },
        { type: 'object', properties: { a: { $ref: '#/hidden/x' } }, hidden: { x: redos } },
        { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: redos } },
        { type: 'object', properties: { a: { type: 'array', items: { anyOf: [redos] } } } },
        { type: 'object', propertyNames: redos },
        { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } },
        { type: 'object', properties: { a: { $dynamicRef: '#node' } } },
      ];
      for (const parameters of hostile) {
        const res = await api('/custom-functions', { method: 'POST', key, body: body({ parameters }) });
        expect({ parameters, status: res.status, code: res.body.error?.code }).toEqual({
          parameters,
          status: 400,
          code: 'VALIDATION_ERROR',
        });
        expect(fieldsOf(res.body)).toEqual(['parameters']);
      }
      // Nor can an update bring one in.
      const fn = await create();
      const patched = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { parameters: hostile[0] },
      });
      expect(patched.status).toBe(400);
      expect(patched.body.error.code).toBe('VALIDATION_ERROR');
      expect((await api(`/custom-functions/${fn.id}`, { key })).body.data.parameters).toEqual(
        body().parameters,
      );
    });

    it('answers 409 CONFLICT for a name the account already uses, in any case', async () => {
      const fn = await create();
      for (const name of [fn.name, fn.name.toUpperCase()]) {
        const res = await api('/custom-functions', { method: 'POST', key, body: body({ name }) });
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('CONFLICT');
      }
      const other = await create();
      const renamed = await api(`/custom-functions/${other.id}`, {
        method: 'PATCH',
        key,
        body: { name: fn.name },
      });
      expect(renamed.status).toBe(409);
      // Another account may use it.
      expect((await create({ name: fn.name }, otherKey)).name).toBe(fn.name);
    });

    it('updates fields partially; headers and response_variables are replaced whole and stay masked', async () => {
      const fn = await create();
      const res = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: {
          description: 'Tells where an order is',
          method: 'PUT',
          timeout_ms: 5000,
          headers: { 'X-Api-Key': 'k-456' },
          response_variables: null,
          speech: { on_delay: 'Still checking.', delay_ms: 1500 },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: fn.name,
        description: 'Tells where an order is',
        method: 'PUT',
        timeout_ms: 5000,
        headers: { 'X-Api-Key': MASK },
        response_variables: {},
        speech: { on_start: null, on_delay: 'Still checking.', delay_ms: 1500, on_failure: null },
        parameters: fn.parameters,
        url: fn.url,
      });
      expect(res.body.data.signing_secret).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain('k-456');
      // A new schema applies from the next run on.
      expect((await test(fn.id, { order_id: 'P1' })).body.data.outcome).not.toBe('invalid_arguments');
      await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } },
      });
      const stale = await test(fn.id, { order_id: 'P1' });
      expect(stale.body.data.outcome).toBe('invalid_arguments');
      expect(stale.body.data.error).toMatch(/sku is required/);
      const bad = await api(`/custom-functions/${fn.id}`, { method: 'PATCH', key, body: { url: 'ftp://x' } });
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad.body)).toEqual(['url']);
      const nulled = await api(`/custom-functions/${fn.id}`, { method: 'PATCH', key, body: { name: null } });
      expect(nulled.status).toBe(400);
    });

    it('asks for the credentials again when the URL moves to another origin, not when only the path changes', async () => {
      const fn = await create();
      const elsewhere = fn.url.replace('https://127.0.0.1:', 'https://localhost:');
      const moved = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { url: elsewhere },
      });
      expect(moved.status).toBe(400);
      expect(moved.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(moved.body)).toEqual(['headers']);
      expect((await api(`/custom-functions/${fn.id}`, { key })).body.data.url).toBe(fn.url);
      // The same origin, another path: the stored headers stay.
      const path = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { url: `${server.url}/orders/v2` },
      });
      expect(path.status).toBe(200);
      expect(path.body.data.headers).toEqual({ Authorization: MASK, 'X-Tenant': MASK });
      const resent = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { url: elsewhere, headers: { Authorization: 'Bearer for-localhost' } },
      });
      expect(resent.status).toBe(200);
      expect(resent.body.data).toMatchObject({ url: elsewhere, headers: { Authorization: MASK } });

      // A function that carries customers' connections: the auth must be sent again to move it.
      const connector = await api('/connectors', {
        method: 'POST',
        key,
        body: { name: `Tickets ${fnName()}`, type: 'api_key', api_key: { in: 'header', name: 'X-Api-Key' } },
      });
      expect(connector.status).toBe(200);
      const auth = { type: 'customer_connection', connector_id: connector.body.data.id };
      const linked = await create({ headers: null, auth });
      const away = await api(`/custom-functions/${linked.id}`, {
        method: 'PATCH',
        key,
        body: { url: `https://localhost:1/tickets` },
      });
      expect(away.status).toBe(400);
      expect(fieldsOf(away.body)).toEqual(['auth']);
      const confirmed = await api(`/custom-functions/${linked.id}`, {
        method: 'PATCH',
        key,
        body: { url: `https://localhost:1/tickets`, auth },
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data.auth).toEqual(auth);
    });

    it('lists with cursor pagination', async () => {
      const own = await partnerKey();
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await create({}, own)).id);
      const first = await api('/custom-functions?limit=2', { key: own });
      expect(first.status).toBe(200);
      expect(first.body.data.custom_functions.map((f: Any) => f.id)).toEqual(made.slice(0, 2));
      const second = await api(
        `/custom-functions?limit=2&cursor=${encodeURIComponent(first.body.data.next_cursor)}`,
        { key: own },
      );
      expect(second.body.data.custom_functions.map((f: Any) => f.id)).toEqual(made.slice(2));
      expect(second.body.data.next_cursor).toBeNull();
    });

    it('bounds the functions of an account and of an agent (429 LIMIT_REACHED)', async () => {
      const own = await partnerKey();
      const made: Any[] = [];
      for (let i = 0; i < 100; i++) made.push(await create({ headers: null, response_variables: null }, own));
      const over = await api('/custom-functions', { method: 'POST', key: own, body: body() });
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('LIMIT_REACHED');
      const agent = await createAgent(own);
      for (const fn of made.slice(0, 20)) {
        const res = await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST', key: own });
        expect(res.status).toBe(200);
      }
      const full = await api(`/agent/${agent.id}/custom-functions/${made[20].id}`, {
        method: 'POST',
        key: own,
      });
      expect(full.status).toBe(429);
      expect(full.body.error.code).toBe('LIMIT_REACHED');
      // Attaching one already attached is still no change, not a refusal.
      expect(
        (await api(`/agent/${agent.id}/custom-functions/${made[0].id}`, { method: 'POST', key: own })).status,
      ).toBe(200);
      // A deleted one frees its place.
      await api(`/custom-functions/${made[99].id}`, { method: 'DELETE', key: own });
      expect((await api('/custom-functions', { method: 'POST', key: own, body: body() })).status).toBe(200);
    }, 60_000);

    it('rotates the signing secret: the new one is shown once and signs from then on', async () => {
      const fn = await create({ url: `${server.url}/rotate` });
      // Run once first, so the service has the function (and its secret) ready before the rotation.
      expect((await test(fn.id, { order_id: 'R0' })).body.data.outcome).toBe('success');
      expect(signatureValid(requestsTo('/rotate')[0], fn.signing_secret)).toBe(true);
      const rotated = await api(`/custom-functions/${fn.id}/rotate-secret`, { method: 'POST', key });
      expect(rotated.status).toBe(200);
      const next = rotated.body.data.signing_secret;
      expect(next).toMatch(/^fnsec_/);
      expect(next).not.toBe(fn.signing_secret);
      expect((await api(`/custom-functions/${fn.id}`, { key })).body.data.signing_secret).toBeUndefined();
      expect((await test(fn.id, { order_id: 'R1' })).body.data.outcome).toBe('success');
      const [, req] = requestsTo('/rotate');
      expect(JSON.parse(req.rawBody).arguments).toEqual({ order_id: 'R1' });
      expect(signatureValid(req, next)).toBe(true);
      expect(signatureValid(req, fn.signing_secret)).toBe(false);
    });
  });

  describe('agents', () => {
    it('attaches a function to agents, lists it on the agent record, detaches it', async () => {
      const fn = await create();
      const agent = await createAgent(key);
      expect(agent.custom_functions).toEqual([]);
      const attached = await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST', key });
      expect(attached.status).toBe(200);
      expect(attached.body.data.custom_functions).toEqual([{ id: fn.id, name: fn.name }]);
      // Again: nothing changes.
      const again = await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST', key });
      expect(again.body.data.custom_functions).toEqual([{ id: fn.id, name: fn.name }]);
      const second = await createAgent(key);
      await api(`/agent/${second.id}/custom-functions/${fn.id}`, { method: 'POST', key });
      expect((await api(`/agent/${agent.id}`, { key })).body.data.custom_functions).toEqual([
        { id: fn.id, name: fn.name },
      ]);
      const record = (await api(`/custom-functions/${fn.id}`, { key })).body.data;
      expect(record.attached_agents.map((a: Any) => a.id)).toEqual([agent.id, second.id]);

      const detached = await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'DELETE', key });
      expect(detached.status).toBe(200);
      expect(detached.body.data.custom_functions).toEqual([]);
      const twice = await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'DELETE', key });
      expect(twice.status).toBe(404);
      expect(twice.body.error.code).toBe('NOT_FOUND');
    });

    it('hands a starting call the specs of the agent’s functions, without url, headers or secret', async () => {
      const fn = await create({ speech: { on_start: 'Checking.' } });
      const agent = await createAgent(key);
      await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST', key });
      const reply = await command<Any>(nc, 'agents.agent.for_call', partnerId, { id: agent.id });
      expect(reply.ok).toBe(true);
      if (!reply.ok) return;
      expect(reply.data).toMatchObject({ id: agent.id, name: agent.agent_name, projectId: agent.project_id });
      expect(reply.data.snapshot.customFunctions).toEqual([
        {
          id: fn.id,
          name: fn.name,
          description: fn.description,
          parameters: fn.parameters,
          timeoutMs: 10_000,
          speech: { onStart: 'Checking.', onDelay: null, delayMs: 2000, onFailure: null },
          async: false,
        },
      ]);
      expect(JSON.stringify(reply.data.snapshot)).not.toMatch(/partner-token|fnsec_|https:/);
    });

    it('copies the agent’s functions into a call’s agent settings when it starts, phone or browser', async () => {
      const { partner, apiKey } = await createPartner({ balance_inr: 100 });
      const fn = await create({ speech: { on_failure: 'That did not work.' } }, apiKey);
      const agent = await createAgent(apiKey);
      await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST', key: apiKey });
      const started = await api('/calls/start', {
        method: 'POST',
        key: apiKey,
        body: { agent_id: agent.id, to_number: callee('02') },
      });
      expect(started.status).toBe(200);
      const session = await api('/browser-sessions', {
        method: 'POST',
        key: apiKey,
        body: { agent_id: agent.id, allowed_origins: ['https://app.example.test'] },
      });
      expect(session.status).toBe(200);
      // A change after the start does not reach the calls already started.
      await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key: apiKey,
        body: { description: 'Changed' },
      });
      const rows = await db.query(
        `SELECT agent_settings->'customFunctions' AS functions FROM calls.calls WHERE partner_id = $1`,
        [partner.id],
      );
      expect(rows.rows).toHaveLength(2);
      for (const row of rows.rows) {
        expect(row.functions).toEqual([
          {
            id: fn.id,
            name: fn.name,
            description: fn.description,
            parameters: fn.parameters,
            timeoutMs: 10_000,
            speech: { onStart: null, onDelay: null, delayMs: 2000, onFailure: 'That did not work.' },
            async: false,
          },
        ]);
      }
    });

    it('deleting a function detaches it from its agents', async () => {
      const fn = await create();
      const agent = await createAgent(key);
      await api(`/agent/${agent.id}/custom-functions/${fn.id}`, { method: 'POST', key });
      const deleted = await api(`/custom-functions/${fn.id}`, { method: 'DELETE', key });
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ id: fn.id, message: 'Custom function deleted' });
      expect((await api(`/agent/${agent.id}`, { key })).body.data.custom_functions).toEqual([]);
      expect((await api(`/custom-functions/${fn.id}`, { key })).status).toBe(404);
      expect((await api(`/custom-functions/${fn.id}`, { method: 'DELETE', key })).status).toBe(404);
    });
  });

  describe('another account', () => {
    it('sees 404 NOT_FOUND for a function on every route, and cannot run it', async () => {
      const fn = await create({ url: `${server.url}/foreign` });
      const theirAgent = await createAgent(otherKey);
      const myAgent = await createAgent(key);
      const routes: [string, string, unknown?][] = [
        ['GET', `/custom-functions/${fn.id}`],
        ['PATCH', `/custom-functions/${fn.id}`, { description: 'taken over' }],
        ['DELETE', `/custom-functions/${fn.id}`],
        ['POST', `/custom-functions/${fn.id}/rotate-secret`],
        ['POST', `/custom-functions/${fn.id}/test`, { arguments: { order_id: 'X' } }],
        ['POST', `/agent/${theirAgent.id}/custom-functions/${fn.id}`],
        ['DELETE', `/agent/${theirAgent.id}/custom-functions/${fn.id}`],
      ];
      for (const [method, path, payload] of routes) {
        const res = await api(path, { method, key: otherKey, body: payload });
        expect({ method, path, status: res.status, code: res.body.error?.code }).toEqual({
          method,
          path,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      // Nor may the owner attach it to another account's agent.
      const foreignAgent = await api(`/agent/${theirAgent.id}/custom-functions/${fn.id}`, {
        method: 'POST',
        key,
      });
      expect(foreignAgent.status).toBe(404);
      // Malformed ids are 404 too.
      expect((await api('/custom-functions/fn_nope', { key })).status).toBe(404);
      expect((await api(`/agent/${myAgent.id}/custom-functions/exs_x`, { method: 'POST', key })).status).toBe(
        404,
      );
      expect(
        (await api(`/agent/${myAgent.id}/custom-functions/${fn.id}`, { method: 'DELETE', key })).status,
      ).toBe(404);
      const invoke = await command<Any>(nc, 'agents.custom_function.invoke', null, {
        partnerId: (await newPartner()).id,
        functionId: fn.id,
        arguments: { order_id: 'X' },
        context: callContext(myAgent.id),
      });
      expect(invoke.ok && invoke.data.outcome).toBe('not_found');
      expect(requestsTo('/foreign')).toHaveLength(0);
      expect((await api(`/custom-functions/${fn.id}`, { key })).body.data.description).toBe(fn.description);
    });
  });

  const callContext = (agentId: string) => ({
    callId: '7d4d2c1a-5b7e-4f3a-9a51-6a1f0e2b7c11',
    browserSessionId: null,
    agentId,
    direction: 'outbound',
    fromNumber: '+14155550100',
    toNumber: '+14155550199',
    variables: { customer_name: 'Asha' },
  });

  describe('POST /custom-functions/{id}/test', () => {
    it('sends the signed request with the arguments and static headers, and reports the answer', async () => {
      server.answer('/lookup', {
        status: 200,
        body: JSON.stringify({ order: { status: 'shipped', items: [{ 'item name': 'Tea' }] } }),
      });
      const fn = await create({ url: `${server.url}/lookup` });
      const res = await test(fn.id, { order_id: 'A-1001', qty: 2 });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        outcome: 'success',
        status: 200,
        latency_ms: expect.any(Number),
        response_excerpt: JSON.stringify({ order: { status: 'shipped', items: [{ 'item name': 'Tea' }] } }),
        error: null,
        variables: { order_status: 'shipped', first_item: 'Tea' },
        log_id: expect.stringMatching(/^ilog_[0-9a-f-]{36}$/),
      });
      const [req] = requestsTo('/lookup');
      expect(req.method).toBe('POST');
      expect(signatureValid(req, fn.signing_secret)).toBe(true);
      expect(Math.abs(Number(req.headers['x-vap-timestamp']) - Date.now())).toBeLessThan(60_000);
      expect(req.headers.authorization).toBe('Bearer partner-token-123');
      expect(req.headers['x-tenant']).toBe('acme');
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.rawBody)).toEqual({
        function: { id: fn.id, name: fn.name },
        arguments: { order_id: 'A-1001', qty: 2 },
        call: {
          id: null,
          browser_session_id: null,
          customer_id: null,
          agent_id: null,
          direction: null,
          from_number: null,
          to_number: null,
          variables: {},
        },
        test: true,
      });

      // One integration log entry, the partner's header values and the signature masked.
      const logged = await db.query('SELECT * FROM agents.integration_logs WHERE id = $1', [
        IntegrationLogId.parse(res.body.data.log_id),
      ]);
      expect(logged.rows).toHaveLength(1);
      expect(logged.rows[0]).toMatchObject({
        partner_id: partnerId,
        kind: 'custom_function_test',
        function_id: fn.id,
        method: 'POST',
        url: `${server.url}/lookup`,
        status: 200,
        outcome: 'success',
        attempts: 1,
      });
      expect(logged.rows[0].request_headers).toMatchObject({
        authorization: MASK,
        'x-tenant': MASK,
        'x-vap-signature': MASK,
      });
      expect(JSON.stringify(logged.rows[0])).not.toContain('partner-token-123');
    });

    it('does not send arguments that break the schema, and says which fields', async () => {
      const fn = await create({ url: `${server.url}/never` });
      const res = await test(fn.id, { qty: 0, colour: 'red' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ outcome: 'invalid_arguments', status: null, log_id: null });
      expect(res.body.data.error).toMatch(/order_id is required/);
      expect(res.body.data.error).toMatch(/colour is not an accepted argument/);
      expect((await test(fn.id, undefined)).body.data.outcome).toBe('invalid_arguments');
      const shape = await test(fn.id, [1, 2]);
      expect(shape.status).toBe(400);
      expect(fieldsOf(shape.body)).toEqual(['arguments']);
      expect(requestsTo('/never')).toHaveLength(0);
    });

    it('reports a non-2xx and a slow answer as failures', async () => {
      server.answer('/broken', { status: 500, body: '{"error":"database down"}' });
      const broken = await create({ url: `${server.url}/broken` });
      const failed = await test(broken.id, { order_id: 'A1' });
      expect(failed.body.data).toMatchObject({
        outcome: 'http_error',
        status: 500,
        error: 'the server answered HTTP 500',
        response_excerpt: '{"error":"database down"}',
        variables: {},
      });
      // POST is not retried.
      expect(requestsTo('/broken')).toHaveLength(1);

      server.answer('/slow', { status: 200, body: '{}', delayMs: 4000 });
      const slow = await create({ url: `${server.url}/slow`, timeout_ms: 1000 });
      const started = Date.now();
      const timedOut = await test(slow.id, { order_id: 'A1' });
      expect(timedOut.body.data).toMatchObject({
        outcome: 'timeout',
        status: null,
        error: 'no answer within 1000 ms',
        response_excerpt: '',
      });
      expect(Date.now() - started).toBeLessThan(3500);
    });

    it('does not run a function whose stored schema breaks the rules (saved before them): nothing is compiled or sent', async () => {
      const fn = await create({ url: `${server.url}/legacy-schema` });
      // As a row saved under the older rules could be: a backtracking pattern under dependencies.
      await db.query(
        'UPDATE agents.custom_functions SET parameters = $1, version = version + 1 WHERE id = $2',
        [
          JSON.stringify({
            type: 'object',
            dependencies: { order_id: { properties: { order_id: { type: 'string', pattern: '^(a+)+$' } } } },
          }),
          fn.id,
        ],
      );
      const started = Date.now();
      const res = await test(fn.id, { order_id: `${'a'.repeat(28)}!` });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ outcome: 'refused', status: null, log_id: null });
      expect(res.body.data.error).toMatch(/parameters schema is no longer accepted/);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(requestsTo('/legacy-schema')).toHaveLength(0);
    });

    it('answers a name that does not resolve and a closed port alike, in the test and in the log', async () => {
      const closedPort = await unusedPort();
      const answers = [];
      for (const url of ['https://no-such-host.invalid/orders', `https://127.0.0.1:${closedPort}/orders`]) {
        const fn = await create({ url, method: 'GET' });
        const res = await test(fn.id, { order_id: 'A1' });
        expect(res.status).toBe(200);
        const entry = await api(`/integration-logs/${res.body.data.log_id}`, { key });
        expect(entry.status).toBe(200);
        answers.push({
          ...res.body.data,
          latency_ms: undefined,
          log_id: undefined,
          logged: {
            outcome: entry.body.data.outcome,
            error: entry.body.data.error,
            status: entry.body.data.status,
          },
        });
      }
      expect(answers).toEqual([CONNECT_FAILED_ANSWER, CONNECT_FAILED_ANSWER]);
    });

    it('passes on text answers, cuts large ones and keeps other types from the model', async () => {
      server.answer('/text', { status: 200, body: 'Order A1 ships tomorrow.', contentType: 'text/plain' });
      server.answer('/huge', { status: 200, body: JSON.stringify({ pad: 'x'.repeat(40_000) }) });
      server.answer('/image', { status: 200, body: 'not really a png', contentType: 'image/png' });
      const text = await test((await create({ url: `${server.url}/text` })).id, { order_id: 'T1' });
      expect(text.body.data).toMatchObject({
        outcome: 'success',
        response_excerpt: 'Order A1 ships tomorrow.',
        variables: {},
      });
      const huge = await test((await create({ url: `${server.url}/huge` })).id, { order_id: 'T1' });
      expect(huge.body.data.outcome).toBe('success');
      expect(huge.body.data.response_excerpt).toHaveLength(4096);
      const logged = await db.query('SELECT response_body FROM agents.integration_logs WHERE id = $1', [
        IntegrationLogId.parse(huge.body.data.log_id),
      ]);
      expect(logged.rows[0].response_body).toHaveLength(4096);
      const image = await test((await create({ url: `${server.url}/image` })).id, { order_id: 'T1' });
      expect(image.body.data).toMatchObject({ outcome: 'success', status: 200 });
      expect(image.body.data.response_excerpt).toMatch(/image\/png, not passed on/);
    });

    it('retries an idempotent method once after a 503; sends GET arguments as the signed payload parameter', async () => {
      server.answer('/busy', { status: 503, body: 'busy' });
      const put = await create({ url: `${server.url}/busy`, method: 'PUT', timeout_ms: 3000 });
      const res = await test(put.id, { order_id: 'A1' });
      expect(res.body.data).toMatchObject({ outcome: 'http_error', status: 503 });
      expect(requestsTo('/busy')).toHaveLength(2);
      const [first, second] = requestsTo('/busy');
      expect(second.headers['x-vap-request-id']).toBe(first.headers['x-vap-request-id']);
      const logged = await db.query('SELECT attempts FROM agents.integration_logs WHERE id = $1', [
        IntegrationLogId.parse(res.body.data.log_id),
      ]);
      expect(logged.rows[0].attempts).toBe(2);

      const get = await create({ url: `${server.url}/by-query?region=eu`, method: 'GET' });
      expect((await test(get.id, { order_id: 'G1' })).body.data.outcome).toBe('success');
      const [req] = requestsTo('/by-query');
      expect(req.method).toBe('GET');
      expect(req.rawBody).toBe('');
      const query = new URL(req.url, 'https://x').searchParams;
      expect(query.get('region')).toBe('eu');
      expect(JSON.parse(query.get('payload')!)).toMatchObject({ arguments: { order_id: 'G1' }, test: true });
      expect(signatureValid(req, get.signing_secret)).toBe(true);
    });
  });

  describe('agents.custom_function.invoke', () => {
    it('runs a function for a call with the call context, and maps the answer into variables', async () => {
      server.answer('/during-call', {
        status: 200,
        body: JSON.stringify({ order: { status: 'packed', items: [] } }),
      });
      const fn = await create({ url: `${server.url}/during-call` });
      const agent = await createAgent(key);
      const reply = await command<Any>(nc, 'agents.custom_function.invoke', partnerId, {
        partnerId,
        functionId: fn.id,
        arguments: { order_id: 'C-7' },
        context: callContext(agent.id),
      });
      expect(reply).toEqual({
        ok: true,
        data: {
          outcome: 'success',
          status: 200,
          latencyMs: expect.any(Number),
          result: JSON.stringify({ order: { status: 'packed', items: [] } }),
          error: null,
          variables: { order_status: 'packed' },
          logId: expect.any(String),
        },
      });
      const [req] = requestsTo('/during-call');
      expect(JSON.parse(req.rawBody)).toEqual({
        function: { id: fn.id, name: fn.name },
        arguments: { order_id: 'C-7' },
        call: {
          id: '7d4d2c1a-5b7e-4f3a-9a51-6a1f0e2b7c11',
          browser_session_id: null,
          customer_id: null,
          agent_id: agent.id,
          direction: 'outbound',
          from_number: '+14155550100',
          to_number: '+14155550199',
          variables: { customer_name: 'Asha' },
        },
        test: false,
      });
      // During a call the answer comes first and its log row right after.
      const logged = await waitFor(async () => {
        const rows = await db.query(
          'SELECT kind, call_id, agent_id FROM agents.integration_logs WHERE id = $1',
          [reply.ok ? reply.data.logId : null],
        );
        return rows.rowCount ? rows : null;
      });
      expect(logged.rows[0]).toEqual({
        kind: 'custom_function',
        call_id: '7d4d2c1a-5b7e-4f3a-9a51-6a1f0e2b7c11',
        agent_id: agent.id,
      });

      const invalid = await command<Any>(nc, 'agents.custom_function.invoke', partnerId, {
        partnerId,
        functionId: fn.id,
        arguments: { order_id: 7 },
        context: callContext(agent.id),
      });
      expect(invalid.ok && invalid.data).toMatchObject({ outcome: 'invalid_arguments', logId: null });
      expect(invalid.ok && invalid.data.error).toMatch(/order_id must be string/);
      expect(requestsTo('/during-call')).toHaveLength(1);

      await api(`/custom-functions/${fn.id}`, { method: 'DELETE', key });
      const gone = await command<Any>(nc, 'agents.custom_function.invoke', partnerId, {
        partnerId,
        functionId: fn.id,
        arguments: { order_id: 'C-7' },
        context: callContext(agent.id),
      });
      expect(gone.ok && gone.data.outcome).toBe('not_found');
    });

    it('gives the request the timeout_ms of the call’s snapshot, whatever the function says now', async () => {
      server.answer('/snapshot-timeout', { status: 200, body: '{"ok":true}', delayMs: 2500 });
      // The call started with timeout_ms 1000; the function has been changed since.
      const fn = await create({ url: `${server.url}/snapshot-timeout`, timeout_ms: 1000 });
      const agent = await createAgent(key);
      const invoke = (timeoutMs: number) =>
        command<Any>(nc, 'agents.custom_function.invoke', partnerId, {
          partnerId,
          functionId: fn.id,
          arguments: { order_id: 'T-1' },
          context: callContext(agent.id),
          timeoutMs,
        });
      const longer = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { timeout_ms: 4000 },
      });
      expect(longer.status).toBe(200);
      const started = Date.now();
      const cut = await invoke(1000);
      expect(cut.ok && cut.data).toMatchObject({ outcome: 'timeout', error: 'no answer within 1000 ms' });
      expect(Date.now() - started).toBeLessThan(2500);

      // And the other way round: a snapshot longer than the function's timeout_ms now is waited out.
      const shorter = await api(`/custom-functions/${fn.id}`, {
        method: 'PATCH',
        key,
        body: { timeout_ms: 1000 },
      });
      expect(shorter.status).toBe(200);
      const waited = await invoke(4000);
      expect(waited.ok && waited.data).toMatchObject({ outcome: 'success', status: 200 });
    });
  });
});

describe('custom functions behind the private-network guard', () => {
  let own: OwnPlatform;
  let server: FunctionServer;

  beforeAll(async () => {
    server = await startFunctionServer();
    own = await startOwnPlatform({
      name: 'fn_guard',
      services: ['agents'],
      // As in production: partners' URLs may not reach private, loopback or link-local addresses.
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '' },
    });
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    await server?.close();
  });

  it('refuses loopback, a name resolving to it, the metadata address and loopback inside IPv6, all answered alike', async () => {
    const baseUrl = own.platform.gatewayUrl;
    const partner = await api('/admin/v1/partners', {
      token: e2eEnv().adminToken,
      baseUrl,
      body: { name: 'Guarded Co' },
    });
    expect(partner.status).toBe(200);
    const key = partner.body.data.api_key as string;
    const port = new URL(server.url).port;
    for (const url of [
      `${server.url}/private`,
      `https://localhost:${port}/private`,
      'https://169.254.169.254/latest/meta-data',
      `https://[::127.0.0.1]:${port}/private`,
      `https://[::ffff:127.0.0.1]:${port}/private`,
      `https://[64:ff9b::127.0.0.1]:${port}/private`,
      `https://[2002:7f00:1::1]:${port}/private`,
    ]) {
      const fn = await api('/custom-functions', {
        method: 'POST',
        key,
        baseUrl,
        // GET, as in the test of a name that does not resolve and a closed port above: the same retry rule.
        body: { name: fnName(), description: 'Tries a private address', url, method: 'GET' },
      });
      expect(fn.status).toBe(200);
      const res = await api(`/custom-functions/${fn.body.data.id}/test`, {
        method: 'POST',
        key,
        baseUrl,
        body: {},
      });
      expect(res.status).toBe(200);
      expect(res.body.data.log_id).toEqual(expect.any(String));
      const entry = await api(`/integration-logs/${res.body.data.log_id}`, { key, baseUrl });
      expect(entry.status).toBe(200);
      expect({
        url,
        ...res.body.data,
        latency_ms: undefined,
        log_id: undefined,
        logged: {
          outcome: entry.body.data.outcome,
          error: entry.body.data.error,
          status: entry.body.data.status,
        },
      }).toEqual({ url, ...CONNECT_FAILED_ANSWER });
    }
    expect(server.requests).toHaveLength(0);
  }, 60_000);
});
