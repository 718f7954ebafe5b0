// A connector's side of the world, for the connectors specs: an OAuth 2.0 authorization server and the API its
// tokens open, on one local HTTPS server (trusted by the apps through the run's test CA).
//
// Followed faithfully, as a real server would enforce them:
// - RFC 6749 (OAuth 2.0): the authorization endpoint (§4.1.1, §4.1.2, errors §4.1.2.1: a bad client_id or
//   redirect_uri is shown, never redirected), the token endpoint's authorization_code grant (§4.1.3: a code once,
//   bound to its client and redirect_uri; a reused code revokes what it issued) and refresh_token grant (§6), its
//   error responses (§5.2) and client authentication (§2.3.1: HTTP Basic or client_secret_post, not both).
// - RFC 7636 (PKCE): S256 only; the verifier is checked against the challenge (§4.6).
// - Refresh token rotation (OAuth 2.0 Security BCP, RFC 9700 §4.14.2): each refresh answers a new refresh token
//   and the old one stops working.
// - RFC 7009 (token revocation): 200 whatever the token; a revoked refresh token takes its access tokens along.
// - RFC 6750 (bearer tokens): the API answers 401 with WWW-Authenticate: Bearer error="invalid_token".
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';

export interface FakeOAuthClient {
  clientId: string;
  clientSecret: string;
  /** The redirect URI registered for the client (RFC 6749 §3.1.2): exact match. */
  redirectUri: string;
}

export interface ApiRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  status: number;
  /** The request's body parsed as JSON (a function's payload), or null. */
  json: unknown;
}

export interface TokenRequest {
  grantType: string;
  /** How the client authenticated: basic, post, or none. */
  clientAuth: 'basic' | 'post' | 'none';
  status: number;
  error: string | null;
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  expiresAt: number;
  used: boolean;
  issued: string[];
}

interface AccessToken {
  clientId: string;
  expiresAt: number;
  refreshToken: string | null;
  revoked: boolean;
}

interface RefreshToken {
  clientId: string;
  scope: string;
  revoked: boolean;
}

const b64url = (bytes = 24) => randomBytes(bytes).toString('base64url');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class FakeOAuthServer {
  readonly tokenRequests: TokenRequest[] = [];
  readonly apiRequests: ApiRequest[] = [];
  readonly revocations: string[] = [];
  /** expires_in of the access tokens issued next (seconds). */
  accessTokenTtlSec = 3600;
  /** The next authorization request is refused by the user (error=access_denied). */
  denyNext = false;
  private readonly clients = new Map<string, FakeOAuthClient>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, AccessToken>();
  private readonly refresh = new Map<string, RefreshToken>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeOAuthServer> {
    const certFile = process.env.E2E_TLS_CERT;
    const keyFile = process.env.E2E_TLS_KEY;
    if (!certFile || !keyFile)
      throw new Error('E2E_TLS_CERT/E2E_TLS_KEY are not set (the e2e setup makes them)');
    // The server's handler needs the instance, made once the server listens.
    const holder: { self?: FakeOAuthServer } = {};
    const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => holder.self!.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    holder.self = new FakeOAuthServer(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.self;
  }

  get authorizeUrl(): string {
    return `${this.url}/oauth/authorize`;
  }
  get tokenUrl(): string {
    return `${this.url}/oauth/token`;
  }
  get revocationUrl(): string {
    return `${this.url}/oauth/revoke`;
  }
  /** The partner API a function calls: answers only a live bearer token. */
  get apiUrl(): string {
    return `${this.url}/api`;
  }

  registerClient(redirectUri: string): FakeOAuthClient {
    const client = { clientId: `client-${b64url(6)}`, clientSecret: b64url(), redirectUri };
    this.clients.set(client.clientId, client);
    return client;
  }

  /** Every access token issued so far stops working (as if it ran out on the server's side). */
  expireAccessTokens(): void {
    for (const t of this.access.values()) t.expiresAt = 0;
  }

  /** Every refresh token (and access token) of the client is revoked, as a user removing the app would. */
  revokeGrants(clientId: string): void {
    for (const t of this.refresh.values()) if (t.clientId === clientId) t.revoked = true;
    for (const t of this.access.values()) if (t.clientId === clientId) t.revoked = true;
  }

  /** Whether a token is live: an access token unexpired, or a refresh token unrevoked. */
  isLive(token: string): boolean {
    const a = this.access.get(token);
    if (a) return !a.revoked && a.expiresAt > Date.now();
    const r = this.refresh.get(token);
    return r ? !r.revoked : false;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') return this.authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/oauth/token') return this.token(req, body, res);
    if (req.method === 'POST' && url.pathname === '/oauth/revoke') return this.revoke(req, body, res);
    if (url.pathname.startsWith('/api/')) return this.api(req, url, res, body);
    res.writeHead(404).end();
  }

  /** RFC 6749 §4.1.1-§4.1.2: the user (always present and willing here, unless denyNext) grants access. */
  private authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const client = this.clients.get(q.get('client_id') ?? '');
    // §4.1.2.1: an unknown client or a redirect_uri not registered is told to the user, never redirected to.
    if (!client || q.get('redirect_uri') !== client.redirectUri) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid client_id or redirect_uri');
      return;
    }
    const back = new URL(client.redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const fail = (error: string) => {
      back.searchParams.set('error', error);
      res.writeHead(302, { location: back.toString() }).end();
    };
    if (q.get('response_type') !== 'code') return fail('unsupported_response_type');
    const challenge = q.get('code_challenge');
    // RFC 7636 §4.4.1: this server requires PKCE, and S256 (plain is refused).
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge) || q.get('code_challenge_method') !== 'S256')
      return fail('invalid_request');
    if (this.denyNext) {
      this.denyNext = false;
      return fail('access_denied');
    }
    const code = b64url();
    this.codes.set(code, {
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      challenge,
      scope: q.get('scope') ?? '',
      expiresAt: Date.now() + 60_000,
      used: false,
      issued: [],
    });
    back.searchParams.set('code', code);
    res.writeHead(302, { location: back.toString() }).end();
  }

  /** RFC 6749 §2.3.1: exactly one way of authenticating the client. */
  private authenticate(
    req: IncomingMessage,
    form: URLSearchParams,
  ): { client: FakeOAuthClient | null; how: TokenRequest['clientAuth']; error: string | null } {
    const header = req.headers.authorization;
    const inBody = form.has('client_secret');
    if (header && inBody) return { client: null, how: 'basic', error: 'invalid_request' };
    if (header?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(header.slice(6), 'base64')
        .toString('utf8')
        .split(':')
        .map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
      const client = this.clients.get(id ?? '');
      const ok = client && secret !== undefined && safeEqual(secret, client.clientSecret);
      return { client: ok ? client : null, how: 'basic', error: ok ? null : 'invalid_client' };
    }
    if (inBody) {
      const client = this.clients.get(form.get('client_id') ?? '');
      const ok = client && safeEqual(form.get('client_secret') ?? '', client.clientSecret);
      return { client: ok ? client : null, how: 'post', error: ok ? null : 'invalid_client' };
    }
    // Every client here is confidential: it must authenticate.
    return { client: null, how: 'none', error: 'invalid_client' };
  }

  private token(req: IncomingMessage, body: string, res: ServerResponse): void {
    const form = new URLSearchParams(body);
    const grantType = form.get('grant_type') ?? '';
    const answer = (status: number, json: Record<string, unknown>, how: TokenRequest['clientAuth']) => {
      this.tokenRequests.push({
        grantType,
        clientAuth: how,
        status,
        error: typeof json.error === 'string' ? json.error : null,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        pragma: 'no-cache',
      };
      if (status === 401) headers['www-authenticate'] = 'Basic realm="fake-oauth"';
      res.writeHead(status, headers).end(JSON.stringify(json));
    };
    if (req.headers['content-type']?.split(';')[0] !== 'application/x-www-form-urlencoded')
      return answer(400, { error: 'invalid_request' }, 'none');
    const { client, how, error } = this.authenticate(req, form);
    if (!client) return answer(error === 'invalid_client' ? 401 : 400, { error }, how);

    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.clientId !== client.clientId || code.expiresAt < Date.now())
        return answer(400, { error: 'invalid_grant' }, how);
      if (code.used) {
        // §4.1.2: a code used twice revokes the tokens it was exchanged for.
        for (const t of code.issued) {
          const a = this.access.get(t);
          if (a) a.revoked = true;
          const r = this.refresh.get(t);
          if (r) r.revoked = true;
        }
        return answer(400, { error: 'invalid_grant' }, how);
      }
      code.used = true;
      if (form.get('redirect_uri') !== code.redirectUri) return answer(400, { error: 'invalid_grant' }, how);
      const verifier = form.get('code_verifier') ?? '';
      const derived = createHash('sha256').update(verifier, 'ascii').digest('base64url');
      // RFC 7636 §4.1: 43 to 128 unreserved characters; §4.6: S256 must match.
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !safeEqual(derived, code.challenge))
        return answer(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' }, how);
      const issued = this.issue(client.clientId, code.scope);
      code.issued.push(issued.access_token as string, issued.refresh_token as string);
      return answer(200, issued, how);
    }
    if (grantType === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const current = this.refresh.get(presented);
      if (!current || current.revoked || current.clientId !== client.clientId)
        return answer(400, { error: 'invalid_grant' }, how);
      // Rotation: the presented refresh token is spent.
      current.revoked = true;
      return answer(200, this.issue(client.clientId, current.scope), how);
    }
    return answer(400, { error: 'unsupported_grant_type' }, how);
  }

  private issue(clientId: string, scope: string): Record<string, unknown> {
    const accessToken = `at_${b64url()}`;
    const refreshToken = `rt_${b64url()}`;
    this.refresh.set(refreshToken, { clientId, scope, revoked: false });
    this.access.set(accessToken, {
      clientId,
      expiresAt: Date.now() + this.accessTokenTtlSec * 1000,
      refreshToken,
      revoked: false,
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.accessTokenTtlSec,
      refresh_token: refreshToken,
      scope,
    };
  }

  /** RFC 7009 §2.1-§2.2: the client revokes a token of its own; 200 even for an unknown one. */
  private revoke(req: IncomingMessage, body: string, res: ServerResponse): void {
    const form = new URLSearchParams(body);
    const { client } = this.authenticate(req, form);
    if (!client) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      return;
    }
    const token = form.get('token') ?? '';
    const r = this.refresh.get(token);
    if (r && r.clientId === client.clientId) {
      r.revoked = true;
      for (const a of this.access.values()) if (a.refreshToken === token) a.revoked = true;
    }
    const a = this.access.get(token);
    if (a && a.clientId === client.clientId) a.revoked = true;
    this.revocations.push(token);
    res.writeHead(200).end();
  }

  /** The connector's API: a live bearer token (RFC 6750 §2.1), else 401 invalid_token (§3.1). */
  private api(req: IncomingMessage, url: URL, res: ServerResponse, body: string): void {
    const authorization = req.headers.authorization;
    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const a = this.access.get(token);
    const live = a !== undefined && !a.revoked && a.expiresAt > Date.now();
    this.apiRequests.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization,
      status: live ? 200 : 401,
      json: jsonOrNull(body),
    });
    if (!live) {
      res
        .writeHead(401, { 'www-authenticate': 'Bearer realm="fake-api", error="invalid_token"' })
        .end('{"error":"invalid_token"}');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ next: 'dentist', at: '3 pm' }));
  }
}

function jsonOrNull(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
