import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import {
  BrowserSessionDto,
  BrowserSessionListDto,
  CreateBrowserSessionDto,
  CreatedBrowserSessionDto,
  ListBrowserSessionsQueryDto,
} from '@vap/api';
import {
  AppError,
  ErrorCode,
  isUuid,
  minimumStartBalancePaise,
  PartnerContext,
  Subjects,
} from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { keysetPage, tableOf } from '@vap/persistence';
import { effectiveConcurrencyLimit, lockActiveCalls } from '../partners/partner-lock';
import { Call, newCall } from '../calls/entities/call.entity';
import { CallSession, newSession } from '../calls/entities/call-session.entity';
import { BalanceGuard } from '../balance-guard/balance-guard.service';
import { CallsConfig } from '../config/calls.config';
import { RecordingStore } from '../recording/recording-store';
import { callStatusesOf, toBrowserSessionDto } from './browser-session-dto';
import { BrowserSessionLinks } from './browser-session-links';
import { BrowserSession } from '../carriers/browser/entities/browser-session.entity';

/**
 * POST/GET /browser-sessions: a session is admitted as a call is (the partner's standing, the balance for one
 * 30-second call, a slot of the concurrency limit from create until it ends), stored as a call row of kind
 * `browser` and answered with its one-time access token. Every read is scoped by partner (another's is 404).
 */
@Injectable()
export class BrowserSessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly rpc: RpcClient,
    private readonly balance: BalanceGuard,
    private readonly links: BrowserSessionLinks,
    private readonly recordings: RecordingStore,
  ) {}

  async create(partner: PartnerContext, input: CreateBrowserSessionDto): Promise<CreatedBrowserSessionDto> {
    const minimum = minimumStartBalancePaise(this.config.CALL_PRICE_PER_MINUTE_PAISE);
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
      const active = await lockActiveCalls(em, partner.id);
      if (active >= limit) {
        throw new AppError(
          ErrorCode.LIMIT_REACHED,
          `Concurrency limit reached: ${active} of ${limit} calls and browser sessions are active; create again when one ends`,
        );
      }
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
        }),
        kind: 'browser',
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
    const created = await this.get(partner.id, id);
    return { ...created, access_token: access.token, connect_url: access.connectUrl };
  }

  async get(partnerId: string, id: string): Promise<BrowserSessionDto> {
    const call = isUuid(id)
      ? await this.dataSource.getRepository(Call).findOne({ where: { id, partnerId, kind: 'browser' } })
      : null;
    if (!call) throw AppError.notFound('Browser session');
    const [session, browser] = await Promise.all([
      this.dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id }),
      this.dataSource.getRepository(BrowserSession).findOneByOrFail({ callId: call.id }),
    ]);
    return toBrowserSessionDto(call, session, browser, await this.urlOf(call, session));
  }

  async list(partnerId: string, query: ListBrowserSessionsQueryDto): Promise<BrowserSessionListDto> {
    const qb = this.dataSource
      .getRepository(Call)
      .createQueryBuilder('c')
      .where('c.partner_id = :partnerId', { partnerId })
      .andWhere(`c.kind = 'browser'`);
    if (query.agent_id) qb.andWhere('c.agent_id = :agentId', { agentId: query.agent_id });
    if (query.status) {
      const { statuses, expired } = callStatusesOf(query.status);
      qb.andWhere('c.status IN (:...statuses)', { statuses });
      if (expired !== undefined) {
        qb.andWhere(
          `EXISTS (SELECT 1 FROM ${tableOf(this.dataSource, BrowserSession)} b
                    WHERE b.call_id = c.id AND b.expired = :expired)`,
          { expired },
        );
      }
    }
    if (query.created_after) qb.andWhere('c.created_at >= :after', { after: query.created_after });
    if (query.created_before) qb.andWhere('c.created_at < :before', { before: query.created_before });
    const { rows: page, nextCursor } = await keysetPage(qb, query, { idKind: 'uuid', direction: 'DESC' });
    const ids = page.map((c) => c.id);
    const [sessions, browsers] = ids.length
      ? await Promise.all([
          this.dataSource.getRepository(CallSession).findBy({ callId: In(ids) }),
          this.dataSource.getRepository(BrowserSession).findBy({ callId: In(ids) }),
        ])
      : [[], []];
    const sessionOf = new Map(sessions.map((s) => [s.callId, s]));
    const browserOf = new Map(browsers.map((b) => [b.callId, b]));
    const browserSessions = await Promise.all(
      page.map(async (c) => {
        const session = sessionOf.get(c.id)!;
        return toBrowserSessionDto(c, session, browserOf.get(c.id)!, await this.urlOf(c, session));
      }),
    );
    return { browser_sessions: browserSessions, next_cursor: nextCursor };
  }

  private async urlOf(call: Call, session: CallSession): Promise<string | null> {
    if (!call.agentSettings.enableRecording || !session.recordingKey) return null;
    return (await this.recordings.signedUrl(session.recordingKey, call.id)).url;
  }
}
