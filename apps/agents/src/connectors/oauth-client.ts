import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { connectionFailureMessage, PrivateNetworkGuard, PublicHttpClient } from '@vap/egress';
import { KnowledgeConfig } from '../config/knowledge.config';
import type { OAuth2Settings } from './entities/connector.entity';

/** A token endpoint's or revocation endpoint's answer is small; a request to one is given this long. */
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
const TOKEN_RESPONSE_MAX_BYTES = 65_536;

/** The client as the token endpoint knows it: its id, its secret (null: a public client) and how it sends them. */
export interface OAuthClientCredentials {
  settings: OAuth2Settings;
  clientSecret: string | null;
}

/** A successful token response (RFC 6749 §5.1). */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives, when the server says. */
  expiresIn: number | null;
  scopes: string[] | null;
}

/**
 * A failed token request: `error` is the server's code (RFC 6749 §5.2: invalid_grant, invalid_client, ...) when
 * it answered one, else null (no answer, or an answer that is not a token response).
 */
export class TokenRequestError extends Error {
  constructor(
    readonly error: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined for HTTP Basic. */
function basicCredentials(id: string, secret: string): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

/** The form and headers of a request to the token or revocation endpoint, the client authenticated. */
export function clientAuthenticated(
  client: OAuthClientCredentials,
  form: Record<string, string>,
): { body: string; headers: Record<string, string> } {
  const params = new URLSearchParams(form);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const { client_id } = client.settings;
  if (client.clientSecret === null) {
    // A public client identifies itself (RFC 6749 §4.1.3: client_id when not authenticating).
    params.set('client_id', client_id);
  } else if (client.settings.token_auth_method === 'client_secret_post') {
    params.set('client_id', client_id);
    params.set('client_secret', client.clientSecret);
  } else {
    headers.authorization = basicCredentials(client_id, client.clientSecret);
  }
  return { body: params.toString(), headers };
}

/** Reads a token endpoint's answer: the token set of a 200, else the error it names. */
export function parseTokenResponse(status: number, text: string): TokenSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TokenRequestError(null, `the token endpoint answered HTTP ${status} without JSON`);
  }
  const body = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  if (status !== 200) {
    const error = typeof body.error === 'string' ? body.error.slice(0, 100) : null;
    throw new TokenRequestError(
      error,
      error
        ? `the token endpoint answered HTTP ${status} ${error}`
        : `the token endpoint answered HTTP ${status}`,
    );
  }
  if (typeof body.access_token !== 'string' || body.access_token === '')
    throw new TokenRequestError(null, 'the token endpoint answered without an access_token');
  // Only bearer tokens can be sent as the platform sends them (RFC 6750).
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer')
    throw new TokenRequestError(null, 'the token endpoint answered a token_type other than Bearer');
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? Math.floor(expiresIn) : null,
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : null,
  };
}

/**
 * The platform's side of a connector's OAuth 2.0 server (RFC 6749 §4.1.3 code exchange with the PKCE verifier,
 * §6 refresh, RFC 7009 revocation), through the private-network guard like every request to a partner's URL.
 */
@Injectable()
export class OAuthClient implements OnModuleDestroy {
  private readonly http: PublicHttpClient;

  constructor(config: KnowledgeConfig) {
    this.http = new PublicHttpClient(
      new PrivateNetworkGuard({ allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS }),
    );
  }

  exchangeCode(
    client: OAuthClientCredentials,
    code: string,
    redirectUri: string,
    codeVerifier: string,
  ): Promise<TokenSet> {
    return this.token(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    });
  }

  refresh(client: OAuthClientCredentials, refreshToken: string): Promise<TokenSet> {
    return this.token(client, { grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** RFC 7009 §2: true when the server answered 200 (the token is invalid now, or was already). */
  async revoke(client: OAuthClientCredentials, token: string, hint: 'refresh_token' | 'access_token') {
    const url = client.settings.revocation_url;
    if (!url) return false;
    const { body, headers } = clientAuthenticated(client, { token, token_type_hint: hint });
    try {
      const res = await this.http.send('POST', url, {
        timeoutMs: TOKEN_REQUEST_TIMEOUT_MS,
        maxBytes: TOKEN_RESPONSE_MAX_BYTES,
        truncate: true,
        headers,
        body,
      });
      return res.status === 200;
    } catch {
      return false;
    }
  }

  private async token(client: OAuthClientCredentials, form: Record<string, string>): Promise<TokenSet> {
    const { body, headers } = clientAuthenticated(client, form);
    let res;
    try {
      res = await this.http.send('POST', client.settings.token_url, {
        timeoutMs: TOKEN_REQUEST_TIMEOUT_MS,
        maxBytes: TOKEN_RESPONSE_MAX_BYTES,
        headers,
        body,
      });
    } catch (err) {
      throw new TokenRequestError(
        null,
        `the token endpoint could not be reached (${connectionFailureMessage(err)})`,
      );
    }
    return parseTokenResponse(res.status, res.body.toString('utf8'));
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
