import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  AppError,
  ConnectCallbackRequest,
  ConnectFinishedReply,
  CONNECT_STATE_TTL_MS,
  CONNECTION_API_KEY_MAX_CHARS,
  ConnectOpenReply,
  ConnectOpenRequest,
  ConnectSubmitKeyRequest,
  ErrorCode,
} from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { recordConnectionEvent } from './connection-events';
import { findConnector } from './connector-records';
import { credentialEndpointsMoved } from './connector-reconsent';
import { ConnectorSecrets } from './connector-secrets';
import { Connector } from './entities/connector.entity';
import { CustomerConnection } from './entities/customer-connection.entity';
import { OAuthClient, TokenRequestError } from './oauth-client';
import { codeChallengeS256, isTokenShaped, randomToken, tokenHash } from './pkce';

/** One answer whatever is wrong with a link: unknown, expired and spent read the same to whoever holds it. */
function linkNotUsable(): AppError {
  return new AppError(
    ErrorCode.NOT_FOUND,
    'This connect link is not valid: it may have expired or been used already. Ask for a new link.',
  );
}

/** The callback came to a browser that did not start the attempt (no binding cookie, or another one). */
function otherBrowser(): AppError {
  return new AppError(
    ErrorCode.FORBIDDEN,
    'This sign-in was started in another browser. Open your connect link again in this browser.',
  );
}

/** Constant-time equality of two stored hashes (hex of SHA-256: same length when both are hashes). */
function sameHash(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function attemptNotUsable(): AppError {
  return new AppError(
    ErrorCode.NOT_FOUND,
    'This sign-in is not valid any more: it may have expired or finished already. Open your connect link again.',
  );
}

/** A pasted key goes into a header or a query parameter: visible ASCII only, no line breaks. */
function apiKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.trim() === '') return 'Paste your API key.';
  if (key.trim().length > CONNECTION_API_KEY_MAX_CHARS)
    return `The key is longer than ${CONNECTION_API_KEY_MAX_CHARS} characters.`;
  if (!/^[\x21-\x7E]+$/.test(key.trim())) return 'The key may contain only visible ASCII characters.';
  return null;
}

/**
 * The hosted connect flow. A link's token opens its connection's page until a connection completes through it or
 * it expires: each visit of an OAuth 2.0 link starts a fresh authorization attempt (a new state and PKCE
 * verifier, replacing the last, so only the newest can complete, and a mail scanner's visit spends nothing);
 * the callback's state is taken once. Everything lives in the connection's row: nothing is kept in memory.
 */
@Injectable()
export class ConnectFlowService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: ConnectorSecrets,
    private readonly oauth: OAuthClient,
    private readonly outbox: OutboxService,
  ) {}

  async open(req: ConnectOpenRequest): Promise<ConnectOpenReply> {
    if (!isTokenShaped(req.token)) throw linkNotUsable();
    return this.dataSource.transaction(async (em) => {
      const found = await this.byLink(em, req.token);
      if (!found) throw linkNotUsable();
      const { connection, connector } = found;
      if (!connector.oauth2) return { kind: 'api_key_form', connectorName: connector.name };
      if (!isTokenShaped(req.browserBinding)) throw linkNotUsable();
      // Only to the authorization server as validated when it was set (HTTPS, a public host): a link issued for
      // another one was dropped when the connector moved (see requireReconnect).
      const url = new URL(connector.oauth2.authorize_url);
      if (url.protocol !== 'https:' || url.username || url.password) throw linkNotUsable();
      url.hash = '';
      const state = randomToken();
      // RFC 7636 §4.1: 43 characters of the unreserved set, from 32 random bytes.
      const verifier = randomToken();
      await em.update(CustomerConnection, connection.id, {
        stateHash: tokenHash(state),
        stateBindingHash: tokenHash(req.browserBinding),
        stateExpiresAt: new Date(Date.now() + CONNECT_STATE_TTL_MS),
        verifierSealed: this.secrets.seal(connection.id, 'verifier', verifier),
      });
      // The partner's extra parameters first: the protocol's own are set over them.
      for (const [name, value] of Object.entries(connector.oauth2.authorize_params))
        url.searchParams.set(name, value);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', connector.oauth2.client_id);
      url.searchParams.set('redirect_uri', req.redirectUri);
      if (connector.oauth2.scopes.length) url.searchParams.set('scope', connector.oauth2.scopes.join(' '));
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', codeChallengeS256(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return { kind: 'redirect', url: url.toString(), connectorName: connector.name };
    });
  }

  /** The API key form: the link's token is spent with the key stored, in one statement's lock. */
  async submitKey(req: ConnectSubmitKeyRequest): Promise<ConnectFinishedReply> {
    if (!isTokenShaped(req.token)) throw linkNotUsable();
    const problem = apiKeyProblem(req.apiKey);
    if (problem) throw AppError.validation([{ field: 'api_key', message: problem }], problem);
    return this.dataSource.transaction(async (em) => {
      const found = await this.byLink(em, req.token);
      if (!found || !found.connector.apiKey) throw linkNotUsable();
      const { connection, connector } = found;
      await em.update(CustomerConnection, connection.id, {
        status: 'connected',
        linkTokenHash: null,
        linkExpiresAt: null,
        accessTokenSealed: this.secrets.seal(connection.id, 'access_token', req.apiKey.trim()),
        refreshTokenSealed: null,
        tokenExpiresAt: null,
        scopes: [],
        connectedAt: new Date(),
        lastRefreshedAt: null,
        error: null,
      });
      await recordConnectionEvent(this.outbox, em, connection, connector, 'connected', 'link_completed');
      return { connectorName: connector.name };
    });
  }

  /**
   * The authorization server sent the customer back (RFC 6749 §4.1.2): the state is taken (once), then the code
   * is exchanged with the verifier (§4.1.3, RFC 7636 §4.5) and the tokens stored sealed. A refusal or a failed
   * exchange leaves the connection in error (a connected one keeps its credential) and the link usable again.
   */
  async callback(req: ConnectCallbackRequest): Promise<ConnectFinishedReply> {
    if (!isTokenShaped(req.state)) throw attemptNotUsable();
    if (!isTokenShaped(req.browserBinding)) throw otherBrowser();
    const taken = await this.dataSource.transaction(async (em) => {
      const table = tableOf(em, CustomerConnection);
      const [attempt] = (await em.query(
        `SELECT id, state_binding_hash FROM ${table} WHERE state_hash = $1 AND state_expires_at > now() FOR UPDATE`,
        [tokenHash(req.state)],
      )) as { id: string; state_binding_hash: string | null }[];
      if (!attempt) return null;
      // RFC 6749 §10.12: checked before the state is spent or any code exchanged, so a forged callback in
      // another browser neither connects nor cancels the customer's own attempt.
      if (!sameHash(attempt.state_binding_hash, tokenHash(req.browserBinding)))
        return 'other_browser' as const;
      // An UPDATE answers [rows, count].
      const [[row]] = (await em.query(
        `UPDATE ${table} x SET state_hash = NULL, state_binding_hash = NULL, state_expires_at = NULL,
                verifier_sealed = NULL, updated_at = now()
           FROM (SELECT id, verifier_sealed FROM ${table} WHERE id = $1) old
          WHERE x.id = old.id
          RETURNING x.id, old.verifier_sealed AS verifier_sealed`,
        [attempt.id],
      )) as [{ id: string; verifier_sealed: string | null }[], number];
      if (!row) return null;
      const connection = await em.findOneByOrFail(CustomerConnection, { id: row.id });
      const connector = await em.findOneByOrFail(Connector, { id: connection.connectorId });
      return { connection, connector, verifier: this.secrets.open(row.id, 'verifier', row.verifier_sealed) };
    });
    if (taken === 'other_browser') throw otherBrowser();
    if (!taken || !taken.connector.oauth2 || !taken.verifier) throw attemptNotUsable();
    const { connection, connector, verifier } = taken;
    const settings = taken.connector.oauth2;
    if (req.error !== null || !req.code) {
      // The partner sees the server's error code (RFC 6749 §4.1.2.1: its character set); the customer's page
      // shows only fixed words, never text the authorization server chose.
      const code = req.error ? req.error.replace(/[^\x21\x23-\x5B\x5D-\x7E]/g, '').slice(0, 100) : 'no code';
      await this.failed(connection, `the authorization server answered ${code || 'an error'}`);
      throw new AppError(
        ErrorCode.FORBIDDEN,
        code === 'access_denied'
          ? `Access to ${connector.name} was not granted. You can open your link again to retry.`
          : `${connector.name} did not complete the sign-in. You can open your link again to retry.`,
      );
    }
    const client = {
      settings,
      clientSecret: this.secrets.openClientSecret(connector.id, connector.clientSecretSealed),
    };
    let tokens;
    try {
      tokens = await this.oauth.exchangeCode(client, req.code, req.redirectUri, verifier);
    } catch (err) {
      const message = err instanceof TokenRequestError ? err.message : 'the code could not be exchanged';
      await this.failed(connection, message);
      throw AppError.downstream(
        `${connector.name} did not confirm the connection. You can open your link again to retry.`,
      );
    }
    const now = Date.now();
    await this.dataSource.transaction(async (em) => {
      // The connector may have moved its endpoints during the exchange: then these tokens (of the old server)
      // are not kept, and the connection stays reconnect_required.
      const current = await findConnector(em, connector.partnerId, connector.id, 'share').catch(() => null);
      if (!current?.oauth2 || credentialEndpointsMoved(settings, current.oauth2)) throw attemptNotUsable();
      await em.update(CustomerConnection, connection.id, {
        status: 'connected',
        linkTokenHash: null,
        linkExpiresAt: null,
        accessTokenSealed: this.secrets.seal(connection.id, 'access_token', tokens.accessToken),
        refreshTokenSealed: this.secrets.seal(connection.id, 'refresh_token', tokens.refreshToken),
        tokenExpiresAt: tokens.expiresIn === null ? null : new Date(now + tokens.expiresIn * 1000),
        scopes: tokens.scopes ?? settings.scopes,
        connectedAt: new Date(now),
        lastRefreshedAt: null,
        error: null,
      });
      await recordConnectionEvent(this.outbox, em, connection, connector, 'connected', 'link_completed');
    });
    return { connectorName: connector.name };
  }

  private async failed(connection: CustomerConnection, error: string): Promise<void> {
    const table = tableOf(this.dataSource, CustomerConnection);
    await this.dataSource.query(
      `UPDATE ${table} SET error = $2, updated_at = now(),
              status = CASE WHEN status = 'connected' THEN status ELSE 'error' END
        WHERE id = $1`,
      [connection.id, error],
    );
  }

  /** The connection a live link names, locked, with its connector. */
  private async byLink(
    em: EntityManager,
    token: string,
  ): Promise<{ connection: CustomerConnection; connector: Connector } | null> {
    const connection = await em
      .getRepository(CustomerConnection)
      .createQueryBuilder('x')
      .where('x.link_token_hash = :hash AND x.link_expires_at > now()', { hash: tokenHash(token) })
      .setLock('pessimistic_write')
      .getOne();
    if (!connection) return null;
    const connector = await em.findOneByOrFail(Connector, { id: connection.connectorId });
    return { connection, connector };
  }
}
