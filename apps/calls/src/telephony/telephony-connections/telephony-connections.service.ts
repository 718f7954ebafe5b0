import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import {
  CARRIER_CONNECTION_PROVIDERS,
  CarrierConnectionProvider,
  CONNECTION_NUMBERS_SHOWN,
  ConnectionFailureReason,
  TelephonyConnectionDeletedDto,
  TelephonyConnectionResourceDto,
  TelephonyConnectionResourceListDto,
  TelephonyConnectionTestDto,
  UpdateTelephonyConnectionDto,
} from '@vap/api';
import { AppError, DomainEvents, ErrorCode, TelephonyConnectionId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { CallsConfig } from '../../config/calls.config';
import { ACCOUNT_PROBES, AccountProbes } from '../connections/account-probes';
import { AnyCredentials, CredentialsStore } from '../connections/credentials-store.service';
import { DefaultLineService, sandboxNumberOf } from '../connections/default-line.service';
import { ConnectionCredentials } from '../connections/entities/connection-credentials.entity';
import { ConnectionHealthRow } from '../connections/entities/connection-health.entity';
import { Connection } from '../connections/entities/connection.entity';
import { failureReasonOf } from '../connections/health/connection-health.recorder';
import { inboundSmsUrl, inboundWebhookUrl, TelephonyService } from '../connections/telephony.service';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';

const PROVIDERS = CARRIER_CONNECTION_PROVIDERS as readonly string[];
const LIVE_STATUSES = ['pending', 'ringing', 'in_progress'];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The account's carrier connections as one resource (`tcn_<connection uuid>`): the same rows PUT
 * /config/telephony/<carrier> creates, with their numbers and health. Every query is scoped by partner;
 * another partner's connection, a deleted one, or a reseller-link data link is absent.
 */
@Injectable()
export class TelephonyConnectionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly lines: DefaultLineService,
    private readonly credentials: CredentialsStore,
    private readonly telephony: TelephonyService,
    private readonly config: CallsConfig,
    @Inject(ACCOUNT_PROBES) private readonly probes: AccountProbes,
  ) {}

  async list(partnerId: string): Promise<TelephonyConnectionResourceListDto> {
    // Every account has its sandbox line; listing shows it even before the first call creates it.
    await this.lines.ensureSandbox(partnerId);
    const connections = await this.dataSource.getRepository(Connection).find({
      where: { partnerId, provider: In([...PROVIDERS]), deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    const views = [];
    for (const c of connections) views.push(await this.view(this.dataSource.manager, c));
    return { telephony_connections: views };
  }

  async get(partnerId: string, id: string): Promise<TelephonyConnectionResourceDto> {
    return this.view(this.dataSource.manager, await this.find(this.dataSource.manager, partnerId, id));
  }

  /**
   * Rotates the auth token (the account id stays), changes the from-number (a number of this connection, or
   * one the account does not have yet, which becomes one; another connection's is 409) or the label.
   */
  async update(
    partnerId: string,
    id: string,
    changes: UpdateTelephonyConnectionDto,
  ): Promise<TelephonyConnectionResourceDto> {
    const given = (['auth_token', 'from_number', 'label'] as const).filter((k) => changes[k] !== undefined);
    if (given.length === 0) {
      throw AppError.validation([
        { field: 'body', message: 'give at least one of auth_token, from_number, label' },
      ]);
    }
    return this.dataSource.transaction(async (em) => {
      const connection = await this.find(em, partnerId, id, true);
      if (connection.provider === 'sandbox')
        throw AppError.conflict(
          'The sandbox connection is built in: it has no credentials or label to change',
        );
      const creds = await em.findOne(ConnectionCredentials, { where: { connectionId: connection.id } });
      if (!creds) throw AppError.notFound('Telephony connection');
      if (changes.auth_token !== undefined) {
        const secret = await this.credentials.open<AnyCredentials>(connection.id, em);
        creds.sealed = this.credentials.seal(connection.id, { ...secret, auth_token: changes.auth_token });
      }
      if (changes.from_number !== undefined && changes.from_number !== creds.fromNumber) {
        const existing = await em.findOne(PhoneNumber, {
          where: { partnerId, number: changes.from_number },
          lock: { mode: 'pessimistic_write' },
        });
        if (existing && existing.connectionId !== connection.id) {
          throw AppError.conflict(
            `${changes.from_number} is a number of another connection of the account; use one of this connection`,
          );
        }
        await this.telephony.adoptNumber(em, partnerId, connection, changes.from_number);
        creds.fromNumber = changes.from_number;
      }
      if (changes.label !== undefined) creds.label = changes.label;
      await em.save(creds);
      if (changes.auth_token !== undefined || changes.from_number !== undefined) {
        await this.outbox.record(em, DomainEvents.telephonyConnectionUpdated, partnerId, {
          connection_id: connection.id,
          provider: connection.provider as 'carrier_a' | 'carrier_b',
          account_id_masked: creds.accountIdMasked,
          from_number: creds.fromNumber ?? '',
        });
      }
      return this.view(em, connection);
    });
  }

  /**
   * Deletes a carrier connection: 409 while a call on it is live or while it has numbers besides its
   * from-number (delete those first), and for the sandbox. Its credentials, health and from-number go;
   * the row stays (past calls name it) marked deleted, and a PUT of its carrier brings it back.
   */
  async remove(partnerId: string, id: string): Promise<TelephonyConnectionDeletedDto> {
    return this.dataSource.transaction(async (em) => {
      const connection = await this.find(em, partnerId, id, true);
      if (connection.provider === 'sandbox')
        throw AppError.conflict('The sandbox connection is built in and cannot be deleted');
      const [{ live }] = (await em.query(
        `SELECT count(*)::int AS live FROM ${tableOf(em, 'calls')}
          WHERE partner_id = $1 AND connection_id = $2 AND status = ANY($3)`,
        [partnerId, connection.id, LIVE_STATUSES],
      )) as { live: number }[];
      if (live > 0) {
        throw AppError.conflict(`${live} live call(s) use this connection; delete it once they have ended`);
      }
      const creds = await em.findOne(ConnectionCredentials, { where: { connectionId: connection.id } });
      const numbers = await em.find(PhoneNumber, {
        where: { partnerId, connectionId: connection.id },
        order: { createdAt: 'ASC', id: 'ASC' },
        lock: { mode: 'pessimistic_write' },
      });
      const others = numbers.filter((n) => n.number !== creds?.fromNumber);
      if (others.length > 0) {
        const named = others.slice(0, 5).map((n) => n.number);
        throw AppError.conflict(
          `This connection still has ${others.length} number(s) (${named.join(', ')}${others.length > 5 ? ', …' : ''}): ` +
            'delete them first (DELETE /phone-numbers/{id})',
        );
      }
      if (numbers.some((n) => n.isDefault)) {
        throw new AppError(
          ErrorCode.DEFAULT_FROM_NUMBER,
          'The account’s default from-number is on this connection and cannot be deleted',
        );
      }
      for (const n of numbers) {
        await em.delete(PhoneNumber, { id: n.id, partnerId });
        await this.outbox.record(em, DomainEvents.phoneNumberDeleted, partnerId, {
          id: n.id,
          number: n.number,
        });
      }
      await em.delete(ConnectionCredentials, { connectionId: connection.id });
      await em.delete(ConnectionHealthRow, { connectionId: connection.id });
      connection.status = 'disabled';
      connection.deletedAt = new Date();
      await em.save(connection);
      return {
        id: TelephonyConnectionId.format(connection.id),
        deleted: true,
        numbers_deleted: numbers.map((n) => n.number),
        message: 'Telephony connection deleted',
      };
    });
  }

  /**
   * One read of the carrier account with the connection's credentials (never a call): ok, or failed with
   * why (credentials rejected, account unknown, carrier error, unreachable). The sandbox is always ok.
   */
  async test(partnerId: string, id: string): Promise<TelephonyConnectionTestDto> {
    const connection = await this.find(this.dataSource.manager, partnerId, id);
    const base = {
      id: TelephonyConnectionId.format(connection.id),
      provider: connection.provider as CarrierConnectionProvider,
    };
    if (connection.provider === 'sandbox') {
      return {
        ...base,
        result: 'ok',
        reason: null,
        carrier_status: null,
        latency_ms: 0,
        message: 'The sandbox connection is built into the platform and always available',
        tested_at: new Date().toISOString(),
      };
    }
    const probe = this.probes.probeOf(connection.provider);
    if (!probe) throw AppError.internal(`${connection.provider} has no account probe`);
    const started = performance.now();
    const answer = await probe.fetchAccount(connection.id);
    const latency = Math.round(performance.now() - started);
    const testedAt = new Date().toISOString();
    if (!answer.answered) {
      return {
        ...base,
        result: 'failed',
        reason: 'unreachable',
        carrier_status: null,
        latency_ms: latency,
        message: answer.message,
        tested_at: testedAt,
      };
    }
    const ok = answer.status >= 200 && answer.status <= 299;
    const reason: ConnectionFailureReason | null = ok ? null : failureReasonOf(answer.status);
    return {
      ...base,
      result: ok ? 'ok' : 'failed',
      reason,
      carrier_status: answer.status,
      latency_ms: latency,
      message: testMessage(connection.provider, answer.status, reason),
      tested_at: testedAt,
    };
  }

  /** The connection by its tcn_ id, scoped to the partner; deleted ones and reseller-link links are 404. */
  private async find(em: EntityManager, partnerId: string, id: string, lock = false): Promise<Connection> {
    const uuid = TelephonyConnectionId.parse(id);
    const connection = uuid
      ? await em.findOne(Connection, {
          where: { id: uuid, partnerId, provider: In([...PROVIDERS]), deletedAt: IsNull() },
          ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
        })
      : null;
    if (!connection) throw AppError.notFound('Telephony connection');
    return connection;
  }

  private async view(em: EntityManager, c: Connection): Promise<TelephonyConnectionResourceDto> {
    const creds = await em.findOne(ConnectionCredentials, { where: { connectionId: c.id } });
    const health = await em.findOne(ConnectionHealthRow, { where: { connectionId: c.id } });
    const numbers = await em.find(PhoneNumber, {
      where: { partnerId: c.partnerId, connectionId: c.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: CONNECTION_NUMBERS_SHOWN,
    });
    const total =
      numbers.length < CONNECTION_NUMBERS_SHOWN
        ? numbers.length
        : await em.count(PhoneNumber, { where: { partnerId: c.partnerId, connectionId: c.id } });
    const fromNumber = c.provider === 'sandbox' ? sandboxNumberOf(c.partnerId) : (creds?.fromNumber ?? null);
    return {
      id: TelephonyConnectionId.format(c.id),
      connection_id: c.id,
      provider: c.provider as CarrierConnectionProvider,
      label: creds?.label ?? null,
      account_id_masked: creds?.accountIdMasked ?? null,
      from_number: fromNumber,
      inbound_webhook_url: inboundWebhookUrl(this.config.callbackBaseUrl, c),
      inbound_sms_url: inboundSmsUrl(this.config.callbackBaseUrl, c),
      status: c.status,
      numbers: numbers.map((n) => ({
        id: n.id,
        number: n.number,
        status: n.status,
        label: n.label,
        is_from_number: n.number === fromNumber,
      })),
      numbers_total: total,
      health: {
        last_success:
          health?.lastSuccessAt && health.lastSuccessOperation
            ? { at: iso(health.lastSuccessAt)!, operation: health.lastSuccessOperation }
            : null,
        last_failure:
          health?.lastFailureAt && health.lastFailureOperation
            ? {
                at: iso(health.lastFailureAt)!,
                operation: health.lastFailureOperation,
                status: health.lastFailureStatus,
                reason: health.lastFailureReason as ConnectionFailureReason,
              }
            : null,
        last_callback: health?.lastCallbackAt ? { at: iso(health.lastCallbackAt)! } : null,
      },
      created_at: c.createdAt.toISOString(),
      updated_at: (creds && creds.updatedAt > c.updatedAt ? creds.updatedAt : c.updatedAt).toISOString(),
    };
  }
}

function testMessage(provider: string, status: number, reason: ConnectionFailureReason | null): string {
  switch (reason) {
    case null:
      return `${provider} accepted the credentials (HTTP ${status})`;
    case 'credentials_rejected':
      return `${provider} rejected the credentials (HTTP ${status}): check the account id, or rotate the auth token with PATCH`;
    case 'account_not_found':
      return `${provider} does not know this account (HTTP ${status})`;
    default:
      return `${provider} answered HTTP ${status}`;
  }
}
