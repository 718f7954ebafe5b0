import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { CarrierConnectionProvider, ConnectionFailureReason, TelephonyConnectionTestDto } from '@vap/api';
import { AppError, TelephonyConnectionId } from '@vap/messages';
import { ACCOUNT_PROBES, AccountProbes } from '../../../connections/account-probes';
import { failureReasonOf } from '../../../connections/health/connection-health.recorder';
import { findOwnTelephonyConnection } from '../../telephony-connection-views';

/**
 * calls.telephony_connection.test: one read of the carrier account with the connection's credentials (never a
 * call): ok, or failed with why (credentials rejected, account unknown, carrier error, unreachable). The
 * sandbox is always ok.
 */
@Injectable()
export class TestTelephonyConnection {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ACCOUNT_PROBES) private readonly probes: AccountProbes,
  ) {}

  async execute(partnerId: string, id: string): Promise<TelephonyConnectionTestDto> {
    const connection = await findOwnTelephonyConnection(this.dataSource.manager, partnerId, id);
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
