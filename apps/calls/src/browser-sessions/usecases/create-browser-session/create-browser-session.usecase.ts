import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CreateBrowserSessionDto, CreatedBrowserSessionDto } from '@vap/api';
import {
  AppError,
  CallBillingRate,
  ErrorCode,
  minimumStartBalancePaise,
  PartnerContext,
  Subjects,
} from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { BalanceGuard } from '../../../balance-guard/balance-guard.service';
import { Call, newCall } from '../../../calls/entities/call.entity';
import { pricePerMinutePaise } from '../../../charges/call-charges';
import { CallSession, newSession } from '../../../calls/entities/call-session.entity';
import { BrowserSession } from '../../../carriers/browser/entities/browser-session.entity';
import { CallsConfig } from '../../../config/calls.config';
import { effectiveConcurrencyLimit, lockActiveCalls } from '../../../partners/partner-lock';
import { assertPoolRoom, lockResellerPool } from '../../../partners/reseller-pool';
import { BrowserSessionLinks } from '../../browser-session-links';
import { GetBrowserSession } from '../get-browser-session/get-browser-session.usecase';

/**
 * POST /browser-sessions: a session is admitted as a call is (the partner's standing, the balance for one
 * 30-second call, a slot of the concurrency limit from create until it ends), stored as a call row of kind
 * `browser` and answered with its one-time access token.
 */
@Injectable()
export class CreateBrowserSession {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly rpc: RpcClient,
    private readonly balance: BalanceGuard,
    private readonly links: BrowserSessionLinks,
    private readonly getBrowserSession: GetBrowserSession,
  ) {}

  /** `billingRate` test: a test run's session (calls.test_session.create), billed at the test price. */
  async execute(
    partner: PartnerContext,
    input: CreateBrowserSessionDto,
    billingRate: CallBillingRate = 'standard',
  ): Promise<CreatedBrowserSessionDto> {
    const minimum = minimumStartBalancePaise(pricePerMinutePaise(billingRate, partner, this.config));
    const agent = await this.rpc.request(Subjects.agents.agentForCall, partner, { id: input.agent_id });
    if (partner.balancePaise < minimum) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        `Insufficient balance: a browser session needs at least INR ${(minimum / 100).toFixed(2)} (30 seconds)`,
      );
    }
    await this.balance.assertCanStart(partner, minimum);
    const limit = effectiveConcurrencyLimit(partner.concurrencyLimit);
    const now = Date.now();
    const id = await this.dataSource.transaction(async (em) => {
      const pool = await lockResellerPool(em, partner.id);
      const active = await lockActiveCalls(em, partner.id);
      if (active >= limit) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `Concurrency limit reached: ${active} of ${limit} calls and browser sessions are active; create again when one ends`,
        );
      }
      assertPoolRoom(pool);
      const call = em.create(Call, {
        ...newCall(agent, {
          partnerId: partner.id,
          direction: 'inbound',
          fromNumber: 'browser',
          toNumber: 'browser',
          phoneNumberId: null,
          connectionId: null,
          provider: 'browser',
          providerCallId: null,
          clientReferenceId: null,
          variables: input.variables ?? {},
          concurrencyLimit: limit,
          providerStatus: null,
          providerEvent: null,
          customerId: input.customer_id ?? null,
        }),
        kind: 'browser',
        billingRate,
      });
      await em.insert(Call, call as QueryDeepPartialEntity<Call>);
      await em.insert(CallSession, newSession(call));
      await em.insert(BrowserSession, {
        callId: call.id,
        partnerId: partner.id,
        allowedOrigins: input.allowed_origins,
        metadata: input.metadata ?? {},
        customerId: input.customer_id ?? null,
        expiresAt: new Date(now + this.config.BROWSER_SESSION_TOKEN_TTL_MS),
        expired: false,
      } as QueryDeepPartialEntity<BrowserSession>);
      return call.id;
    });
    const access = this.links.access(id, now);
    const created = await this.getBrowserSession.execute(partner.id, id);
    return { ...created, access_token: access.token, connect_url: access.connectUrl };
  }
}
