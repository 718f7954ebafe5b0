// Connectors against a real Postgres: moving a credential endpoint (token_url, revocation_url, the authorize_url's
// origin) needs the client secret again and drops every customer's tokens (reconnect_required, one
// customer_connection.updated each), so nothing reaches the new URL; the authorize_url's host passes the egress
// guard when set; the callback completes only with the browser binding its attempt was opened with, and the
// customer's page never repeats the authorization server's error text. The "new token endpoint" is a local TCP
// listener that counts connections: any request sent to it, TLS or not, is one.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import type { CustomerConnectionUpdatedEvent } from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { OutboxRecord, OutboxService } from '@vap/messaging';
import { runMigrations } from '@vap/persistence';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { AgentsConfig } from '../config/agents.config';
import { CustomFunctionsConfig } from '../config/custom-functions.config';
import { KnowledgeConfig } from '../config/knowledge.config';
import { agentsDataSourceOptions } from '../database/data-source';
import { ConnectFlowService } from './connect-flow.service';
import { ConnectionCredentials } from './connection-credentials';
import { ConnectionsService } from './connections.service';
import { ConnectorSecrets } from './connector-secrets';
import { ConnectorsService } from './connectors.service';
import { CustomerConnection } from './entities/customer-connection.entity';
import { OAuthClient } from './oauth-client';

jest.setTimeout(60_000);

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const CLIENT_SECRET = 'THE-CLIENT-SECRET';

/** What the service threw, as an AppError (fails the test when it resolved). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

/** A listener that only counts who connects (and hangs up on them). */
async function countingListener(): Promise<{
  url: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/oauth/token`,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('connector credential endpoints and the connect flow', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let connectors: ConnectorsService;
  let connections: ConnectionsService;
  let flow: ConnectFlowService;
  let credentials: ConnectionCredentials;
  let secrets: ConnectorSecrets;
  let oauth: OAuthClient;
  let newServer: Awaited<ReturnType<typeof countingListener>>;
  const partner = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_connectors');
    const options = agentsDataSourceOptions(Object.assign(new AgentsConfig(), { DATABASE_URL: db.url }));
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    secrets = new ConnectorSecrets(
      Object.assign(new CustomFunctionsConfig(), { SECRETS_KEY: randomBytes(32).toString('hex') }),
    );
    // Token requests may reach loopback (the counting listener); authorize_url hosts are checked as in production.
    oauth = new OAuthClient(Object.assign(new KnowledgeConfig(), { WEBHOOK_ALLOW_PRIVATE_NETWORKS: true }));
    const outbox = new OutboxService();
    connectors = new ConnectorsService(dataSource, secrets, outbox, new KnowledgeConfig());
    connections = new ConnectionsService(dataSource, secrets, oauth, outbox);
    flow = new ConnectFlowService(dataSource, secrets, oauth, outbox);
    credentials = new ConnectionCredentials(dataSource, secrets, oauth, outbox);
    newServer = await countingListener();
  });

  afterAll(async () => {
    await oauth?.onModuleDestroy();
    await newServer?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  function oauthConnector(tokenUrl = 'https://auth.example.com/oauth/token') {
    return connectors.create(partner, {
      name: `Calendar ${randomBytes(3).toString('hex')}`,
      type: 'oauth2',
      oauth2: {
        authorize_url: 'https://auth.example.com/oauth/authorize',
        token_url: tokenUrl,
        revocation_url: 'https://auth.example.com/oauth/revoke',
        client_id: 'the-client',
        client_secret: CLIENT_SECRET,
      },
    });
  }

  /** A customer's connection holding tokens, as a completed link leaves it (the access token already expired). */
  async function connected(connectorId: string): Promise<string> {
    const customerId = `cus_${randomUUID()}`;
    const made = await connections.createLink(partner, {
      customerId,
      connectorId,
      publicBaseUrl: 'https://platform.example.test',
    });
    const id = made.connection.id;
    await dataSource.getRepository(CustomerConnection).update(id, {
      status: 'connected',
      linkTokenHash: null,
      linkExpiresAt: null,
      accessTokenSealed: secrets.seal(id, 'access_token', 'at_old'),
      refreshTokenSealed: secrets.seal(id, 'refresh_token', 'rt_customer_refresh_token'),
      tokenExpiresAt: new Date(Date.now() - 60_000),
      connectedAt: new Date(),
    });
    return customerId;
  }

  async function connectionEvents(connectorId: string): Promise<CustomerConnectionUpdatedEvent[]> {
    const rows = await dataSource.getRepository(OutboxRecord).find();
    return rows
      .filter((r) => r.subject === DomainEvents.customerConnectionUpdated)
      .map((r) => (r.event as unknown as { data: CustomerConnectionUpdatedEvent }).data)
      .filter((d) => d.connector_id === connectorId);
  }

  it('refuses a new token_url or revocation_url without the client secret, and changes nothing', async () => {
    const connector = await oauthConnector();
    const customerId = await connected(connector.id);
    for (const oauth2 of [
      { token_url: newServer.url },
      { revocation_url: 'https://elsewhere.example.net/revoke' },
      { authorize_url: 'https://elsewhere.example.net/authorize' },
    ]) {
      const err = await refusal(connectors.update(partner, connector.id, { oauth2 }));
      expect(err.code).toBe(ErrorCode.VALIDATION_ERROR);
      expect(err.status).toBe(400);
      expect(err.message).toContain('client_secret');
    }
    expect(await connectors.get(partner, connector.id)).toMatchObject({
      oauth2: { token_url: 'https://auth.example.com/oauth/token', client_secret_set: true },
    });
    const row = await dataSource.getRepository(CustomerConnection).findOneByOrFail({ customerId });
    expect(row.status).toBe('connected');
    expect(row.refreshTokenSealed).not.toBeNull();
  });

  it('with the secret again: every connection loses its tokens and link, is reconnect_required and announced; nothing reaches the new URL', async () => {
    const connector = await oauthConnector();
    const customers = [await connected(connector.id), await connected(connector.id)];
    // A third customer only has an outstanding link: it stops opening.
    const pending = await connections.createLink(partner, {
      customerId: `cus_${randomUUID()}`,
      connectorId: connector.id,
      publicBaseUrl: 'https://platform.example.test',
    });
    const token = pending.connect_url.split('/').pop()!;

    const updated = await connectors.update(partner, connector.id, {
      oauth2: { token_url: newServer.url, client_secret: 'the-new-secret' },
    });
    expect(updated.oauth2).toMatchObject({ token_url: newServer.url, client_secret_set: true });

    const rows = await dataSource.getRepository(CustomerConnection).findBy({ connectorId: connector.id });
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: 'reconnect_required',
        accessTokenSealed: null,
        refreshTokenSealed: null,
        linkTokenHash: null,
        stateHash: null,
      });
      expect(row.error).toMatch(/connect again/);
    }
    const listed = await connections.list(partner, { customerId: customers[0] });
    expect(listed.connections[0]).toMatchObject({ status: 'reconnect_required', link_expires_at: null });

    const events = await connectionEvents(connector.id);
    expect(events).toHaveLength(3);
    expect(events.map((e) => [e.status, e.reason])).toEqual(
      Array(3).fill(['reconnect_required', 'connector_changed']),
    );
    expect(JSON.stringify(events)).not.toMatch(/rt_customer|the-new-secret|THE-CLIENT/);

    // A call of each customer finds no credential, so no refresh goes to the new token endpoint.
    for (const customerId of customers) {
      const got = await credentials.forCall(partner, customerId, connector.id);
      expect(got).toEqual({ ok: false, error: expect.stringContaining('connect again') });
    }
    const row = rows[0];
    expect(await credentials.refresh(row.id, 'at_old')).toMatchObject({ ok: false });
    expect(newServer.connections()).toBe(0);
    // The old link is dead; a new one keeps the status visible until the customer completes it.
    await expect(
      flow.open({
        token,
        redirectUri: 'https://p/cb',
        browserBinding: randomBytes(32).toString('base64url'),
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    const again = await connections.createLink(partner, {
      customerId: customers[0],
      connectorId: connector.id,
      publicBaseUrl: 'https://platform.example.test',
    });
    expect(again.connection.status).toBe('reconnect_required');
  });

  it('changes that send nothing anywhere new keep the connections and need no secret', async () => {
    const connector = await oauthConnector();
    const customerId = await connected(connector.id);
    await connectors.update(partner, connector.id, {
      name: `Renamed ${randomBytes(3).toString('hex')}`,
      oauth2: {
        scopes: ['calendar.read'],
        revocation_url: null,
        authorize_url: 'https://auth.example.com/v2/authorize',
      },
    });
    const row = await dataSource.getRepository(CustomerConnection).findOneByOrFail({ customerId });
    expect(row.status).toBe('connected');
    expect(row.refreshTokenSealed).not.toBeNull();
    expect(await connectionEvents(connector.id)).toEqual([]);
  });

  it('refuses an authorize_url on a private address, at creation and on update', async () => {
    const err = await refusal(
      connectors.create(partner, {
        name: 'Internal',
        type: 'oauth2',
        oauth2: {
          authorize_url: 'https://10.0.0.7/authorize',
          token_url: 'https://auth.example.com/oauth/token',
          client_id: 'c',
        },
      }),
    );
    expect(err.code).toBe(ErrorCode.VALIDATION_ERROR);
    expect(err.message).toContain('oauth2.authorize_url');
    const connector = await oauthConnector();
    const again = await refusal(
      connectors.update(partner, connector.id, {
        oauth2: { authorize_url: 'https://[::1]/authorize', client_secret: 'x' },
      }),
    );
    expect(again.code).toBe(ErrorCode.VALIDATION_ERROR);
  });

  it('the callback completes only in the browser that opened the attempt; the page never repeats the server’s error', async () => {
    const connector = await oauthConnector(newServer.url);
    const made = await connections.createLink(partner, {
      customerId: `cus_${randomUUID()}`,
      connectorId: connector.id,
      publicBaseUrl: 'https://platform.example.test',
    });
    const token = made.connect_url.split('/').pop()!;
    const binding = randomBytes(32).toString('base64url');
    const redirectUri = 'https://platform.example.test/connect/oauth/callback';
    const opened = await flow.open({ token, redirectUri, browserBinding: binding });
    if (opened.kind !== 'redirect') throw new Error('expected a redirect');
    const redirect = new URL(opened.url);
    expect(redirect.origin).toBe('https://auth.example.com');
    const state = redirect.searchParams.get('state')!;

    const before = newServer.connections();
    const other = await refusal(
      flow.callback({
        state,
        code: 'attacker-code',
        error: null,
        redirectUri,
        browserBinding: randomBytes(32).toString('base64url'),
      }),
    );
    expect(other.code).toBe(ErrorCode.FORBIDDEN);
    expect(other.message).toContain('another browser');
    expect(newServer.connections()).toBe(before);

    // The state was not spent by the forged callback: the customer's own browser reaches the token exchange.
    const own = await refusal(
      flow.callback({ state, code: 'the-code', error: null, redirectUri, browserBinding: binding }),
    );
    expect(own.status).toBe(502);
    expect(newServer.connections()).toBe(before + 1);

    // The authorization server's error text is never shown to the customer.
    const retry = await flow.open({ token, redirectUri, browserBinding: binding });
    if (retry.kind !== 'redirect') throw new Error('expected a redirect');
    const denied = await refusal(
      flow.callback({
        state: new URL(retry.url).searchParams.get('state')!,
        code: null,
        error: 'server_error<script>alert(1)</script> Visit evil.example',
        redirectUri,
        browserBinding: binding,
      }),
    );
    expect(denied.message).toBe(
      `${connector.name} did not complete the sign-in. You can open your link again to retry.`,
    );
  });
});
