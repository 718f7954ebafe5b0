import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SmsPolicyDto, UpdateSmsPolicyDto } from '@vap/api';
import { AppError, ErrorCode, SEND_SMS_MAX_PER_CALL } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { CallsConfig } from '../config/calls.config';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';
import { Message } from './entities/message.entity';
import { SmsPolicyRow } from './entities/sms-policy.entity';
import {
  countryOfNumber,
  HIGH_RISK_SMS_PREFIXES,
  isKnownCountry,
  PREMIUM_SMS_PREFIXES,
  smsDestinationOf,
} from './sms-destination';

const DAY_MS = 24 * 60 * 60 * 1000;

const plus = (prefixes: readonly string[]) => prefixes.map((p) => `+${p}`);

/**
 * The account's SMS destination policy (GET and PATCH /messages/policy) and its enforcement on every outbound
 * message, POST /messages and the agent's send_sms alike: premium and satellite ranges refused always,
 * fraud-flagged ranges unless the account lists their country itself, countries outside allowed_countries
 * (default: its own numbers' countries and SMS_DEFAULT_ALLOWED_COUNTRIES), and the daily and per-call caps,
 * counted in the send's transaction.
 */
@Injectable()
export class SmsPolicyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: CallsConfig,
    private readonly lines: DefaultLineService,
  ) {}

  async get(partnerId: string): Promise<SmsPolicyDto> {
    // The sandbox number is made on first need, as GET /phone-numbers does: its country is one of the defaults.
    await this.lines.defaultNumber(partnerId);
    const row = await this.dataSource.getRepository(SmsPolicyRow).findOneBy({ partnerId });
    return this.toDto(partnerId, row);
  }

  async update(partnerId: string, changes: UpdateSmsPolicyDto): Promise<SmsPolicyDto> {
    const unknown = (changes.allowed_countries ?? []).filter((c) => !isKnownCountry(c));
    if (unknown.length > 0) {
      throw AppError.validation([
        { field: 'allowed_countries', message: `not a country the platform knows: ${unknown.join(', ')}` },
      ]);
    }
    if (typeof changes.max_per_day === 'number' && changes.max_per_day > this.config.SMS_MAX_PER_DAY) {
      throw AppError.validation([
        { field: 'max_per_day', message: `max_per_day must be 1..${this.config.SMS_MAX_PER_DAY} or null` },
      ]);
    }
    const row = await this.dataSource.transaction(async (em) => {
      const repo = em.getRepository(SmsPolicyRow);
      // As the contact policy's settings: the row lock orders concurrent PATCHes, each merging into the last.
      await repo.createQueryBuilder().insert().values({ partnerId }).orIgnore().execute();
      const current = await repo.findOneOrFail({ where: { partnerId }, lock: { mode: 'pessimistic_write' } });
      const next: SmsPolicyRow = {
        partnerId,
        allowedCountries:
          changes.allowed_countries !== undefined
            ? (changes.allowed_countries?.slice().sort() ?? null)
            : current.allowedCountries,
        maxPerDay: changes.max_per_day !== undefined ? changes.max_per_day : current.maxPerDay,
        maxPerCall: changes.max_per_call !== undefined ? changes.max_per_call : current.maxPerCall,
        updatedAt: new Date(),
      };
      await repo.save(next);
      return next;
    });
    return this.toDto(partnerId, row);
  }

  /**
   * Refuses a recipient the policy does not allow, before anything is stored: SMS_DESTINATION_BLOCKED for a
   * premium range, or a fraud-flagged one whose country the account did not list itself; else
   * SMS_COUNTRY_NOT_ALLOWED outside the allowed countries. The messages say why in words an agent can speak.
   */
  async assertDestination(partnerId: string, to: string): Promise<void> {
    const destination = smsDestinationOf(to);
    if (destination.risk === 'premium') {
      throw new AppError(
        ErrorCode.SMS_DESTINATION_BLOCKED,
        `${to} is a premium-rate or satellite number, which are never texted`,
      );
    }
    const row = await this.dataSource.getRepository(SmsPolicyRow).findOneBy({ partnerId });
    const listed = row?.allowedCountries ?? null;
    if (destination.risk === 'high_risk' && !(destination.country && listed?.includes(destination.country))) {
      throw new AppError(
        ErrorCode.SMS_DESTINATION_BLOCKED,
        `${to} is in a range (+${destination.prefix}) flagged for SMS fraud; it is texted only when the account ` +
          `lists ${destination.country ?? 'its country'} in allowed_countries itself`,
      );
    }
    const allowed = listed ?? (await this.defaultCountries(partnerId));
    if (!destination.country || !allowed.includes(destination.country)) {
      throw new AppError(
        ErrorCode.SMS_COUNTRY_NOT_ALLOWED,
        destination.country
          ? `${to} is a number in ${destination.country}, which this account does not text (allowed: ${allowed.join(', ') || 'none'})`
          : `${to} is not a number of any country, so it is not texted`,
      );
    }
  }

  /**
   * The daily cap (any 24 hours, the account's outbound messages) and, for an agent's message, the per-call
   * cap: counted under locks taken in the send's transaction, so two sends cannot both take the last one.
   */
  async assertUnderCaps(em: EntityManager, partnerId: string, callId: string | null): Promise<void> {
    const row = await em.getRepository(SmsPolicyRow).findOneBy({ partnerId });
    const { perDay, perCall } = this.caps(row);
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`messages:day:${partnerId}`]);
    // The newest perDay messages of the window: when the oldest of them leaves it, one more may go.
    const [recent] = (await em.query(
      `SELECT count(*)::int AS count, min(created_at) AS oldest FROM (
         SELECT created_at FROM ${tableOf(em, Message)}
          WHERE partner_id = $1 AND direction = 'outbound' AND created_at > now() - interval '24 hours'
          ORDER BY created_at DESC LIMIT $2) w`,
      [partnerId, perDay],
    )) as { count: number; oldest: Date | null }[];
    if (recent.count >= perDay) {
      throw new AppError(
        ErrorCode.SMS_LIMIT_REACHED,
        `this account has sent ${recent.count} messages in the last 24 hours, its max_per_day`,
        { retryAt: new Date(new Date(recent.oldest!).getTime() + DAY_MS).toISOString() },
      );
    }
    if (!callId) return;
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`messages:call:${callId}`]);
    const [{ count }] = (await em.query(
      `SELECT count(*)::int AS count FROM ${tableOf(em, Message)} WHERE call_id = $1`,
      [callId],
    )) as { count: number }[];
    if (count >= perCall) {
      throw new AppError(
        ErrorCode.SMS_LIMIT_REACHED,
        `this call has sent ${count} messages, the most one call sends`,
      );
    }
  }

  /** The caps in force: the account's own, never above the platform's limits (which apply when it set none). */
  private caps(row: SmsPolicyRow | null): { perDay: number; perCall: number } {
    return {
      perDay: Math.min(row?.maxPerDay ?? this.config.SMS_MAX_PER_DAY, this.config.SMS_MAX_PER_DAY),
      perCall: Math.min(row?.maxPerCall ?? SEND_SMS_MAX_PER_CALL, SEND_SMS_MAX_PER_CALL),
    };
  }

  /** The countries of the account's active numbers, and the platform's list. */
  private async defaultCountries(partnerId: string): Promise<string[]> {
    const numbers = await this.dataSource
      .getRepository(PhoneNumber)
      .find({ where: { partnerId, status: 'active' }, select: { number: true } });
    const own = numbers.map((n) => countryOfNumber(n.number)).filter((c): c is string => c !== null);
    return [...new Set([...own, ...this.config.smsDefaultAllowedCountries])].sort();
  }

  private async toDto(partnerId: string, row: SmsPolicyRow | null): Promise<SmsPolicyDto> {
    const [{ count }] = (await this.dataSource.query(
      `SELECT count(*)::int AS count FROM ${tableOf(this.dataSource.manager, Message)}
        WHERE partner_id = $1 AND direction = 'outbound' AND created_at > now() - interval '24 hours'`,
      [partnerId],
    )) as { count: number }[];
    const { perDay, perCall } = this.caps(row);
    return {
      allowed_countries: row?.allowedCountries ?? null,
      default_allowed_countries: await this.defaultCountries(partnerId),
      max_per_day: perDay,
      max_per_day_limit: this.config.SMS_MAX_PER_DAY,
      max_per_call: perCall,
      max_per_call_limit: SEND_SMS_MAX_PER_CALL,
      sent_last_24_hours: count,
      blocked_prefixes: plus(PREMIUM_SMS_PREFIXES),
      high_risk_prefixes: plus(HIGH_RISK_SMS_PREFIXES),
      updated_at: row?.updatedAt.toISOString() ?? null,
    };
  }
}
