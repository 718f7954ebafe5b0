// Connectors through the gateway, as a partner and its customers meet them: the partner defines an OAuth 2.0
// connector (and an API key one), makes a customer a connect link, the customer's browser follows it through a
// fake authorization server (RFC 6749 + RFC 7636, see e2e/support/fake-oauth-server.ts) and back; the partner
// sees the connection's status, never its tokens; a browser session of that customer runs a custom function
// whose requests carry the customer's bearer token, refreshed when it has run out or is refused, until the
// refresh token is revoked; a customer without a connection gets the documented failure; another account sees
// none of it. Each change of a connection's status (connected, revoked, disconnected) reaches the account's
// webhook endpoint as customer_connection.updated, never with a token.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { waitFor } from '@vap/testing';
import {
  adminApi,
  api,
  browse,
  CALL_SERVICES,
  CookieJar,
  e2eEnv,
  FakeOAuthServer,
  HttpsReceiver,
  startHttpsReceiver,
} from '../../support';
import { VoiceWorld } from '../voice/voice-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ORIGIN = 'https://app.example.test';
const INTRO = 'Hello, this is Maya from Acme.';
const ON_FAILURE = 'Sorry, I cannot reach your calendar right now.';

/** A page's side of a browser session: typed lines in, transcript and tool events out. */
class Page {
  readonly messages: Record<string, Any>[] = [];
  readonly closed: Promise<number>;
  private readonly ws: WebSocket;

  constructor(url: string) {
    this.ws = new WebSocket(url, { origin: ORIGIN });
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
    this.ws.on('error', () => undefined);
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(String(data)) as Record<string, Any>;
      this.messages.push(message);
      if (message.type === 'mark') this.send({ type: 'played', name: message.name });
    });
  }

  send(message: Record<string, unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  of(type: string): Record<string, Any>[] {
    return this.messages.filter((m) => m.type === type);
  }

  agentLines(): string[] {
    return this.of('transcript')
      .filter((m) => m.role === 'agent' && m.final)
      .map((m) => m.text as string);
  }

  doneTools(): Record<string, Any>[] {
    return this.of('tool').filter((m) => m.status === 'done');
  }

  async until(predicate: () => boolean, description: string, timeoutMs = 30_000): Promise<void> {
    await waitFor(async () => predicate() || undefined, { timeoutMs, intervalMs: 50, description });
  }

  /** Says a line and waits for the tool call it makes to finish: its outcome. */
  async toolTurn(line: string): Promise<string> {
    const before = this.doneTools().length;
    this.send({ type: 'user_text', text: line });
    await this.until(() => this.doneTools().length > before, `the tool call of "${line}"`);
    return this.doneTools()[before].outcome as string;
  }

  async end(): Promise<void> {
    this.send({ type: 'end' });
    await this.closed;
  }
}

describe('connectors: customers connect their own accounts', () => {
  let world: VoiceWorld;
  let oauth: FakeOAuthServer;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    oauth = await FakeOAuthServer.start();
    receiver = await startHttpsReceiver();
    world = await VoiceWorld.start({
      name: 'connectors',
      services: [...CALL_SERVICES, 'webhooks'],
      // No AI provider: the offline engines hear, think and speak (a typed line naming a function calls it).
      providers: {},
      // The fake connector listens on loopback with a certificate of the run's test CA.
      // Request log lines (info) are read back to prove the connect pages' secrets are redacted.
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
        LOG_LEVEL: 'info',
      },
    });
    // An endpoint with an empty allowlist: every event of the account, connection changes included.
    const endpoint = await world.api('/config/webhooks', {
      method: 'POST',
      body: { label: 'connections', url: `${receiver.url}/hooks`, events: [] },
    });
    expect(endpoint.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
    await oauth?.close();
    await receiver?.close();
  });

  /** The customer_connection.updated deliveries of one connection, in arrival order. */
  const connectionEvents = (connectionId: string): Any[] =>
    receiver.requests
      .filter((r) => (r.json as Any)?.event === 'customer_connection.updated')
      .filter((r) => (r.json as Any).data?.connection_id === connectionId)
      .map((r) => {
        // Never a token: access and refresh tokens of the fake server are at_/rt_ followed by 20+ characters.
        expect(r.rawBody).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{20,}/);
        return r.json;
      });
  const connectionEvent = (connectionId: string, status: string): Promise<Any> =>
    waitFor(async () => connectionEvents(connectionId).find((e) => e.data.status === status), {
      timeoutMs: 20_000,
      description: `customer_connection.updated ${status} for ${connectionId}`,
    });

  const callbackUrl = () => `${world.gateway}/connect/oauth/callback`;

  async function customer(key?: string): Promise<string> {
    const body = { external_id: `ext-${randomBytes(4).toString('hex')}`, name: 'Asha Rao' };
    const res = key
      ? await api('/customers', { method: 'POST', key, body, baseUrl: world.gateway })
      : await world.api('/customers', { method: 'POST', body });
    expect(res.status).toBe(200);
    return res.body.data.id;
  }

  async function oauthConnector(extra: Record<string, unknown> = {}) {
    const client = oauth.registerClient(callbackUrl());
    const res = await world.api('/connectors', {
      method: 'POST',
      body: {
        name: `Calendar ${randomBytes(3).toString('hex')}`,
        type: 'oauth2',
        oauth2: {
          authorize_url: oauth.authorizeUrl,
          token_url: oauth.tokenUrl,
          revocation_url: oauth.revocationUrl,
          scopes: ['calendar.read'],
          client_id: client.clientId,
          client_secret: client.clientSecret,
          authorize_params: { access_type: 'offline' },
          ...extra,
        },
      },
    });
    expect(res.status).toBe(200);
    return { client, connector: res.body.data };
  }

  async function link(customerId: string, connectorId: string) {
    const res = await world.api(`/customers/${customerId}/connections`, {
      method: 'POST',
      body: { connector_id: connectorId },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  async function connections(customerId: string): Promise<Any[]> {
    const res = await world.api(`/customers/${customerId}/connections`);
    expect(res.status).toBe(200);
    return res.body.data.connections;
  }

  it('connects through the hosted link with PKCE; the partner sees the status, never a token; a spent or unknown link is an HTML error page', async () => {
    const { client, connector } = await oauthConnector();
    expect(connector.oauth2).toMatchObject({ client_id: client.clientId, client_secret_set: true });
    expect(JSON.stringify(connector)).not.toContain(client.clientSecret);
    const got = await world.api(`/connectors/${connector.id}`);
    expect(JSON.stringify(got.body)).not.toContain(client.clientSecret);

    const customerId = await customer();
    const made = await link(customerId, connector.id);
    expect(made.connect_url).toMatch(new RegExp(`^${world.gateway}/connect/[A-Za-z0-9_-]{43}$`));
    expect(made.connection).toMatchObject({
      customer_id: customerId,
      connector_id: connector.id,
      status: 'pending',
    });

    const page = await browse(made.connect_url);
    expect(page.status).toBe(200);
    expect(page.contentType).toContain('text/html');
    expect(page.body).toContain(`Connected to ${connector.name}`);
    // The link sent the browser to the authorization server with the protocol's parameters.
    const authorize = new URL(page.hops[1].url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(oauth.authorizeUrl);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: callbackUrl(),
      scope: 'calendar.read',
      code_challenge_method: 'S256',
      access_type: 'offline',
    });
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The code came back to the platform's callback, which exchanged it (HTTP Basic, the default).
    expect(page.hops[2].url.startsWith(`${callbackUrl()}?`)).toBe(true);
    expect(oauth.tokenRequests.at(-1)).toEqual({
      grantType: 'authorization_code',
      clientAuth: 'basic',
      status: 200,
      error: null,
    });

    const [connection] = await connections(customerId);
    expect(connection).toMatchObject({
      id: made.connection.id,
      status: 'connected',
      connector_type: 'oauth2',
      scopes: ['calendar.read'],
      error: null,
      link_expires_at: null,
      last_refreshed_at: null,
    });
    expect(Date.parse(connection.connected_at)).not.toBeNaN();
    expect(Date.parse(connection.expires_at)).toBeGreaterThan(Date.now());
    expect(JSON.stringify(connection)).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{20,}/);
    // The account's endpoint hears of it.
    const connected = await connectionEvent(made.connection.id, 'connected');
    expect(connected.data).toEqual({
      customer_id: customerId,
      connection_id: made.connection.id,
      connector_id: connector.id,
      connector_name: connector.name,
      status: 'connected',
      reason: 'link_completed',
      occurred_at: expect.any(String),
    });
    expect(Date.parse(connected.data.occurred_at)).not.toBeNaN();

    // The link is spent; a made-up one and a callback with an unknown state read the same kind of page.
    for (const url of [
      made.connect_url,
      `${world.gateway}/connect/${randomBytes(32).toString('base64url')}`,
      `${world.gateway}/connect/not-a-token`,
    ]) {
      const refused = await browse(url);
      expect(refused.status).toBe(404);
      expect(refused.contentType).toContain('text/html');
      expect(refused.body).toContain('Could not connect');
      expect(refused.body).not.toMatch(/at .*\.js:\d+|Error:/);
    }
    // A callback in a browser without the binding cookie is refused before the state is even looked up.
    const unbound = await browse(`${callbackUrl()}?state=${randomBytes(32).toString('base64url')}&code=abc`);
    expect(unbound.status).toBe(403);
    expect(unbound.contentType).toContain('text/html');
    expect(unbound.body).toContain('Could not connect');
    const noState = await browse(`${callbackUrl()}?code=abc`);
    expect(noState.status).toBe(400);
    expect(noState.contentType).toContain('text/html');
  }, 60_000);

  /** Everything the platform's gateway wrote to its log so far. */
  function gatewayLog(): string {
    const dir = join(e2eEnv().logDir, 'connectors');
    return readdirSync(dir)
      .filter((f) => f.startsWith('gateway'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
  }

  it('binds the callback to the browser that opened the link, shows no server error text, and never logs a link token, code or state', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const made = await link(customerId, connector.id);
    const token = made.connect_url.split('/').pop();
    const jar = new CookieJar();
    // The customer's browser goes to the authorization server and is sent back: stop before the callback.
    const out = await browse(made.connect_url, { jar, stopBefore: callbackUrl() });
    expect(out.status).toBe(302);
    const cookie = out.hops[0].setCookie.join('; ');
    expect(cookie).toMatch(/^vap_connect_binding=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('Path=/connect/oauth/callback');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const redirect = new URL(out.hops[0].location!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(oauth.authorizeUrl);
    const back = new URL(out.hops.at(-1)!.location!);
    const code = back.searchParams.get('code')!;
    const state = back.searchParams.get('state')!;
    expect(code).toBeTruthy();

    // Another browser (no cookie) with the same callback URL: refused before any token request.
    const exchanges = oauth.tokenRequests.length;
    const forged = await browse(back.toString());
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('another browser');
    expect(oauth.tokenRequests.length).toBe(exchanges);
    expect((await connections(customerId))[0].status).toBe('pending');
    // The customer's own browser still completes it.
    const own = await browse(back.toString(), { jar });
    expect(own.status).toBe(200);
    expect(own.body).toContain(`Connected to ${connector.name}`);

    // The server's error text never reaches the page.
    const made2 = await link(customerId, connector.id);
    const out2 = await browse(made2.connect_url, { jar, stopBefore: callbackUrl() });
    const back2 = new URL(out2.hops.at(-1)!.location!);
    const failed = new URL(callbackUrl());
    failed.searchParams.set('state', back2.searchParams.get('state')!);
    failed.searchParams.set('error', 'server_error<b>Call 555-0100</b>');
    failed.searchParams.set('error_description', 'Your account is locked, visit https://evil.example');
    const page = await browse(failed.toString(), { jar });
    expect(page.status).toBe(403);
    expect(page.body).toContain('did not complete the sign-in');
    expect(page.body).not.toMatch(/555-0100|evil\.example|locked/);

    // Every other gateway route that carries a credential in its path or query, as a client would send it
    // (the answer does not matter: the request is logged either way).
    const other = Object.fromEntries(
      ['invitation', 'reset', 'upload', 'query'].map((k) => [
        k,
        `leak-${k}-${randomBytes(8).toString('hex')}`,
      ]),
    );
    for (const path of [
      `/console/api/invitations/${other.invitation}`,
      `/console/api/password-resets/${other.reset}`,
      `/api/v2/uploads/${other.upload}`,
      `/api/v2/agent?token=${other.query}&api_key=${other.query}&signature=${other.query}`,
    ])
      await fetch(`${world.gateway}${path}`).then((r) => r.arrayBuffer());

    // The gateway's request log holds these requests, none of their secrets.
    await waitFor(
      async () =>
        gatewayLog().includes('/connect/oauth/callback?') && gatewayLog().includes('/api/v2/agent?token=')
          ? true
          : undefined,
      { timeoutMs: 10_000, description: 'the requests in the gateway log' },
    );
    const log = gatewayLog();
    for (const secret of [
      token,
      made2.connect_url.split('/').pop(),
      code,
      state,
      back2.searchParams.get('state'),
      ...Object.values(other),
    ])
      expect(log).not.toContain(secret);
    expect(log).toContain('/connect/[redacted]');
    expect(log).toContain('/console/api/invitations/[redacted]');
    expect(log).toContain('/api/v2/uploads/[redacted]');
  }, 60_000);

  it('a new token URL needs the client secret again; with it the connection drops its tokens and must reconnect', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const made = await link(customerId, connector.id);
    expect((await browse(made.connect_url)).status).toBe(200);
    const moved = await FakeOAuthServer.start();
    try {
      const refused = await world.api(`/connectors/${connector.id}`, {
        method: 'PATCH',
        body: { oauth2: { token_url: moved.tokenUrl } },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_ERROR');
      expect(refused.body.error.message).toContain('client_secret');
      expect((await connections(customerId))[0].status).toBe('connected');

      const client = moved.registerClient(callbackUrl());
      const changed = await world.api(`/connectors/${connector.id}`, {
        method: 'PATCH',
        body: {
          oauth2: {
            token_url: moved.tokenUrl,
            client_id: client.clientId,
            client_secret: client.clientSecret,
          },
        },
      });
      expect(changed.status).toBe(200);
      const [connection] = await connections(customerId);
      expect(connection).toMatchObject({
        status: 'reconnect_required',
        expires_at: null,
        link_expires_at: null,
        error: expect.stringContaining('connect again'),
      });
      const event = await connectionEvent(made.connection.id, 'reconnect_required');
      expect(event.data).toMatchObject({ reason: 'connector_changed', connector_id: connector.id });
      // Disconnecting sends the old tokens nowhere: they are gone.
      const removed = await world.api(`/customers/${customerId}/connections/${connection.id}`, {
        method: 'DELETE',
      });
      expect(removed.status).toBe(200);
      expect(removed.body.data.revoked).toBe(false);
      expect(moved.tokenRequests).toEqual([]);
    } finally {
      await moved.close();
    }
  }, 60_000);

  it('a customer who refuses access gets a failure page, and the connection shows the error', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const made = await link(customerId, connector.id);
    oauth.denyNext = true;
    const page = await browse(made.connect_url);
    expect(page.status).toBe(403);
    expect(page.body).toContain('was not granted');
    const [connection] = await connections(customerId);
    expect(connection).toMatchObject({ status: 'error', error: expect.stringContaining('access_denied') });
    // The link was not spent: the customer tries again and connects.
    const again = await browse(made.connect_url);
    expect(again.status).toBe(200);
    expect((await connections(customerId))[0]).toMatchObject({ status: 'connected', error: null });
  }, 60_000);

  it('runs a customer session’s function with its bearer token, refreshes it when it runs out or is refused, and tells the model when the refresh is revoked', async () => {
    const { client, connector } = await oauthConnector({ token_auth_method: 'client_secret_post' });
    const customerId = await customer();
    // The first access token lives 5 seconds: it is refreshed before the first use.
    oauth.accessTokenTtlSec = 5;
    const made = await link(customerId, connector.id);
    expect((await browse(made.connect_url)).status).toBe(200);
    oauth.accessTokenTtlSec = 3600;
    expect(oauth.tokenRequests.at(-1)).toMatchObject({ grantType: 'authorization_code', clientAuth: 'post' });

    const unique = randomBytes(3).toString('hex');
    const name = `next_meeting_${unique}`;
    const fn = await world.api('/custom-functions', {
      method: 'POST',
      body: {
        name,
        description: 'Finds the caller’s next meeting in their calendar',
        url: `${oauth.apiUrl}/meetings`,
        parameters: { type: 'object', properties: { day: { type: 'string' } } },
        speech: { on_failure: ON_FAILURE },
        auth: { type: 'customer_connection', connector_id: connector.id },
      },
    });
    expect(fn.status).toBe(200);
    expect(fn.body.data.auth).toEqual({ type: 'customer_connection', connector_id: connector.id });
    const agent = await world.agent({ intro_message: INTRO });
    expect(
      (await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, { method: 'POST' })).status,
    ).toBe(200);

    const created = await world.api('/browser-sessions', {
      method: 'POST',
      body: { agent_id: agent.id, allowed_origins: [ORIGIN], customer_id: customerId },
    });
    expect(created.status).toBe(200);
    expect(created.body.data.customer_id).toBe(customerId);
    const page = new Page(created.body.data.connect_url);
    await page.until(() => page.agentLines().includes(INTRO), 'the intro');
    page.send({ type: 'mute', muted: true });
    const line = `Please next meeting ${unique}, the day is Friday.`;
    const apiSeen = () => oauth.apiRequests.filter((r) => r.path === '/api/meetings');

    // 1. The stored token is about to run out: refreshed first (rotation), then sent.
    expect(await page.toolTurn(line)).toBe('success');
    const first = apiSeen();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ method: 'POST', status: 200 });
    expect(first[0].authorization).toMatch(/^Bearer at_/);
    // The function's payload names the call's customer.
    expect(first[0].json).toMatchObject({ call: { customer_id: customerId }, test: false });
    expect(oauth.tokenRequests.at(-1)).toEqual({
      grantType: 'refresh_token',
      clientAuth: 'post',
      status: 200,
      error: null,
    });
    const refreshed = (await connections(customerId))[0];
    expect(refreshed.status).toBe('connected');
    expect(Date.parse(refreshed.last_refreshed_at)).not.toBeNaN();

    // 2. The server stops taking the token: the 401 is followed by a refresh and one retry with the new token.
    oauth.expireAccessTokens();
    expect(await page.toolTurn(line)).toBe('success');
    const second = apiSeen().slice(1);
    expect(second.map((r) => r.status)).toEqual([401, 200]);
    expect(second[0].authorization).toBe(first[0].authorization);
    expect(second[1].authorization).not.toBe(first[0].authorization);

    // 3. The customer revokes the app at the server: the refresh is refused (invalid_grant), the connection is
    //    revoked, the model is told and the function's on_failure is said.
    oauth.revokeGrants(client.clientId);
    expect(await page.toolTurn(line)).toBe('not_connected');
    await page.until(() => page.agentLines().some((l) => l.includes(ON_FAILURE)), 'the on_failure line');
    expect(oauth.tokenRequests.at(-1)).toMatchObject({
      grantType: 'refresh_token',
      status: 400,
      error: 'invalid_grant',
    });
    const revoked = (await connections(customerId))[0];
    expect(revoked).toMatchObject({ status: 'revoked', error: expect.stringContaining('invalid_grant') });
    expect((await connectionEvent(made.connection.id, 'revoked')).data).toMatchObject({
      customer_id: customerId,
      connector_id: connector.id,
      status: 'revoked',
      reason: 'refresh_refused',
    });

    // 4. Nothing more is sent while revoked.
    const sent = apiSeen().length;
    expect(await page.toolTurn(line)).toBe('not_connected');
    expect(apiSeen()).toHaveLength(sent);
    await page.end();

    const ended = await waitFor(
      async () => {
        const res = await world.api(`/browser-sessions/${created.body.data.id}`);
        return res.body.data.status === 'completed' && res.body.data.session.tool_calls?.length === 4
          ? res.body.data
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the session completed with its tool calls' },
    );
    expect(ended.session.tool_calls.map((t: Any) => t.outcome)).toEqual([
      'success',
      'success',
      'not_connected',
      'not_connected',
    ]);

    // A customer without a connection, and a session with no customer: the same documented failure.
    const stranger = await customer();
    for (const customerField of [{ customer_id: stranger }, {}]) {
      const other = await world.api('/browser-sessions', {
        method: 'POST',
        body: { agent_id: agent.id, allowed_origins: [ORIGIN], ...customerField },
      });
      expect(other.status).toBe(200);
      const p = new Page(other.body.data.connect_url);
      await p.until(() => p.agentLines().includes(INTRO), 'the intro');
      p.send({ type: 'mute', muted: true });
      expect(await p.toolTurn(line)).toBe('not_connected');
      await p.until(() => p.agentLines().some((l) => l.includes(ON_FAILURE)), 'the on_failure line');
      await p.end();
    }
    expect(apiSeen()).toHaveLength(sent);
  }, 150_000);

  it('a phone call names its customer: POST /calls/start takes customer_id and GET /calls/{id} shows it', async () => {
    const agent = await world.agent({ intro_message: INTRO });
    const customerId = await customer();
    const call = await world.dial('carrier_b', agent.id, { body: { customer_id: customerId } });
    expect((await world.call(call.callId)).customer_id).toBe(customerId);
    await world.complete(call, 2);
    const done = await world.finished(call.callId);
    expect(done.customer_id).toBe(customerId);
  }, 90_000);

  it('an API key connector: the link shows a form, the pasted key connects, and the partner never sees it', async () => {
    const created = await world.api('/connectors', {
      method: 'POST',
      body: {
        name: `Tickets ${randomBytes(3).toString('hex')}`,
        type: 'api_key',
        api_key: { in: 'header', name: 'X-Api-Key' },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      type: 'api_key',
      oauth2: null,
      api_key: { in: 'header', name: 'X-Api-Key', prefix: '' },
    });
    const customerId = await customer();
    const made = await link(customerId, created.body.data.id);

    const form = await browse(made.connect_url);
    expect(form.status).toBe(200);
    expect(form.body).toMatch(/<form method="post"/);
    expect(form.body).toMatch(/<label for="api_key">/);
    expect(form.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(form.headers['referrer-policy']).toBe('no-referrer');

    const empty = await browse(made.connect_url, { method: 'POST', form: { api_key: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('Paste your API key');

    const key = `key-${randomBytes(16).toString('hex')}`;
    const done = await browse(made.connect_url, { method: 'POST', form: { api_key: key } });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Connected to');
    // Spent: the same post again is refused.
    expect((await browse(made.connect_url, { method: 'POST', form: { api_key: key } })).status).toBe(404);

    const list = await world.api(`/customers/${customerId}/connections`);
    expect(list.body.data.connections).toEqual([
      expect.objectContaining({ status: 'connected', connector_type: 'api_key', expires_at: null }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(key);
  }, 60_000);

  it('disconnecting deletes the connection and revokes its token at the server (RFC 7009)', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const made = await link(customerId, connector.id);
    expect((await browse(made.connect_url)).status).toBe(200);
    const revokedBefore = oauth.revocations.length;
    const res = await world.api(`/customers/${customerId}/connections/${made.connection.id}`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: made.connection.id, message: 'Connection deleted', revoked: true });
    expect(oauth.revocations).toHaveLength(revokedBefore + 1);
    expect(oauth.isLive(oauth.revocations.at(-1)!)).toBe(false);
    expect(await connections(customerId)).toEqual([]);
    expect((await connectionEvent(made.connection.id, 'disconnected')).data).toMatchObject({
      customer_id: customerId,
      connector_id: connector.id,
      connector_name: connector.name,
      status: 'disconnected',
      reason: 'deleted',
    });
    // Both, and no other: events of a connection are not delivered in order (two deliveries can cross on the
    // way), so the receiver orders them by when they happened.
    await connectionEvent(made.connection.id, 'connected');
    const events = connectionEvents(made.connection.id).sort((a, b) =>
      String(a.data.occurred_at).localeCompare(String(b.data.occurred_at)),
    );
    expect(events.map((e) => e.data.status)).toEqual(['connected', 'disconnected']);
    const again = await world.api(`/customers/${customerId}/connections/${made.connection.id}`, {
      method: 'DELETE',
    });
    expect(again.status).toBe(404);
  }, 60_000);

  it('tests a customer_connection function with a customer’s connection; without customer_id it is not_connected', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const made = await link(customerId, connector.id);
    expect((await browse(made.connect_url)).status).toBe(200);
    const fn = await world.api('/custom-functions', {
      method: 'POST',
      body: {
        name: `agenda_${randomBytes(3).toString('hex')}`,
        description: 'Reads the customer’s agenda',
        url: `${oauth.apiUrl}/agenda`,
        auth: { type: 'customer_connection', connector_id: connector.id },
      },
    });
    expect(fn.status).toBe(200);
    const test = (body: Record<string, unknown>) =>
      world.api(`/custom-functions/${fn.body.data.id}/test`, { method: 'POST', body });
    const seen = () => oauth.apiRequests.filter((r) => r.path === '/api/agenda');

    // No customer: the documented outcome, saying what is missing; nothing is sent.
    const bare = await test({});
    expect(bare.status).toBe(200);
    expect(bare.body.data).toMatchObject({ outcome: 'not_connected', status: null, log_id: null });
    expect(bare.body.data.error).toContain('customer_id');
    // A customer of the account with no connection to this connector: not_connected too.
    const stranger = await test({ customer_id: await customer() });
    expect(stranger.body.data).toMatchObject({ outcome: 'not_connected' });
    expect(stranger.body.data.error).toContain('has not connected');
    expect(seen()).toHaveLength(0);

    // An unknown (or another account's) customer is 404; a malformed id is 400.
    const unknown = await test({ customer_id: `cus_${randomUUID()}` });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await test({ customer_id: 'nobody' })).status).toBe(400);

    // The customer's connection: sent with its bearer token, the payload naming the customer.
    const ok = await test({ customer_id: customerId, arguments: {} });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ outcome: 'success', status: 200 });
    expect(seen()).toHaveLength(1);
    expect(seen()[0].authorization).toMatch(/^Bearer at_/);
    expect(seen()[0].json).toMatchObject({
      call: { id: null, customer_id: customerId },
      test: true,
    });
    expect(JSON.stringify(ok.body)).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{20,}/);
  }, 60_000);

  it('an archived customer takes no new calls, sessions or connect links (409 INVALID_STATE) until restored', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const agent = await world.agent({ intro_message: INTRO });
    const archived = await world.api(`/customers/${customerId}`, {
      method: 'PATCH',
      body: { status: 'ARCHIVED' },
    });
    expect(archived.status).toBe(200);
    // Archived is not gone: GET still shows it.
    expect((await world.api(`/customers/${customerId}`)).body.data.status).toBe('ARCHIVED');

    const refused = [
      await world.api(`/customers/${customerId}/connections`, {
        method: 'POST',
        body: { connector_id: connector.id },
      }),
      await world.api('/browser-sessions', {
        method: 'POST',
        body: { agent_id: agent.id, allowed_origins: [ORIGIN], customer_id: customerId },
      }),
      await world.api('/calls/start', {
        method: 'POST',
        body: { agent_id: agent.id, to_number: '+14155550123', customer_id: customerId },
      }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE');
      expect(res.body.error.message).toContain('archived');
    }
    expect(await connections(customerId)).toEqual([]);

    const restored = await world.api(`/customers/${customerId}`, {
      method: 'PATCH',
      body: { status: 'ACTIVE' },
    });
    expect(restored.status).toBe(200);
    expect((await link(customerId, connector.id)).connection.status).toBe('pending');
    const session = await world.api('/browser-sessions', {
      method: 'POST',
      body: { agent_id: agent.id, allowed_origins: [ORIGIN], customer_id: customerId },
    });
    expect(session.status).toBe(200);
  }, 60_000);

  it('another account sees and uses none of it: 404 for the connector, the customer and the connection', async () => {
    const { connector } = await oauthConnector();
    const customerId = await customer();
    const made = await link(customerId, connector.id);

    const other = await adminApi('/partners', {
      method: 'POST',
      baseUrl: world.gateway,
      body: { name: `Other ${randomBytes(3).toString('hex')}`, balance_inr: 100 },
    });
    expect(other.status).toBe(200);
    const key = other.body.data.api_key as string;
    const as = (path: string, options: { method?: string; body?: unknown } = {}) =>
      api(path, { ...options, key, baseUrl: world.gateway });

    expect((await as(`/connectors/${connector.id}`)).status).toBe(404);
    expect(
      (await as(`/connectors/${connector.id}`, { method: 'PATCH', body: { name: 'Mine' } })).status,
    ).toBe(404);
    expect((await as(`/connectors/${connector.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await as('/connectors')).body.data.connectors).toEqual([]);
    expect((await as(`/customers/${customerId}/connections`)).status).toBe(404);
    expect(
      (
        await as(`/customers/${customerId}/connections`, {
          method: 'POST',
          body: { connector_id: connector.id },
        })
      ).status,
    ).toBe(404);
    expect(
      (await as(`/customers/${customerId}/connections/${made.connection.id}`, { method: 'DELETE' })).status,
    ).toBe(404);
    // Its own customer cannot be linked to the first account's connector either.
    const own = await customer(key);
    const foreign = await as(`/customers/${own}/connections`, {
      method: 'POST',
      body: { connector_id: connector.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    // Nor can its functions authenticate with it, nor its sessions name the first account's customer.
    const fn = await as('/custom-functions', {
      method: 'POST',
      body: {
        name: `steal_${randomBytes(3).toString('hex')}`,
        description: 'x',
        url: `${oauth.apiUrl}/meetings`,
        auth: { type: 'customer_connection', connector_id: connector.id },
      },
    });
    expect(fn.status).toBe(404);
    expect(
      (
        await as('/calls/start', {
          method: 'POST',
          body: { agent_id: randomUUID(), to_number: '+14155550123', customer_id: customerId },
        })
      ).status,
    ).toBe(404);
    // The first account's link still works, untouched.
    expect((await connections(customerId))[0].status).toBe('pending');
  }, 60_000);
});
