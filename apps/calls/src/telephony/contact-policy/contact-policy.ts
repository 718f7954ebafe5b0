import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Histogram } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { CallingWindow, PolicyRule, resolveCallingWindow, StartCallOrigin } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { Clock } from '@vap/runtime';
import { calleeZone } from './callee-zone';
import { describeLocal, localMidnight, nextLocalMidnight, windowVerdict } from './calling-window';
import { ContactPolicySettingsService } from './contact-policy-settings.service';
import { shareDoNotCallList } from './do-not-call-lock';
import { doNotCallMatches } from './do-not-call.service';
import { DoNotCallEntry } from './entities/do-not-call-entry.entity';
import { PolicyDecision } from './entities/policy-decision.entity';

/** What the check adds to a dial (the do-not-call probe; the decision log write only when it stops one). */
export const policyCheckSeconds = new Histogram({
  name: 'vap_contact_policy_check_seconds',
  help: 'Time the contact policy check took per outbound dial, by result (allowed, stopped)',
  labelNames: ['result'],
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1],
});

/** The frequency caps' count, inside the admission (only on accounts with a cap). */
export const policyCapsSeconds = new Histogram({
  name: 'vap_contact_policy_caps_seconds',
  help: "Time the frequency caps' count took per outbound dial inside the admission, by result (allowed, stopped)",
  labelNames: ['result'],
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1],
});

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** What a contact is: a call (POST /calls/start, campaign dials) or an SMS (POST /messages, send_sms). */
export type ContactChannel = 'call' | 'message';

/** The end of a refusal's message: what did not happen. */
const notDone = (channel: ContactChannel | undefined) =>
  channel === 'message' ? 'nothing was sent' : 'nothing was dialled';

function doNotCallStop(permit: PolicyStop['permit'], match: DoNotCallEntry): PolicyStop {
  const { number } = permit;
  const covered = match.kind === 'number' ? number : `${number} (prefix ${match.value})`;
  return {
    permit,
    rule: 'do_not_call',
    code: ErrorCode.DO_NOT_CALL,
    message: `${covered} is on the do-not-call list (${match.reason}, ${match.id}); ${notDone(permit.channel)}`,
    detail: `on the do-not-call list: ${covered}, reason ${match.reason}`,
    retryAt: null,
    doNotCallId: match.id,
  };
}

/** A dial that passed the checks made before admission; its caps are checked inside the admission. */
export interface DialPermit {
  partnerId: string;
  number: string;
  origin: StartCallOrigin | null;
  /** A call unless said: an SMS is counted against the caps among the number's messages, logged as source message. */
  channel?: ContactChannel;
  /** The callee's zone: the day cap counts the callee's calendar day. */
  zone: string;
  maxPerDay: number | null;
  maxPer7Days: number | null;
}

/** A dial a rule stopped: logged, then refused with the rule's code. */
export interface PolicyStop {
  permit: Pick<DialPermit, 'partnerId' | 'number' | 'origin' | 'channel'>;
  rule: PolicyRule;
  code: ErrorCode;
  message: string;
  detail: string;
  retryAt: Date | null;
  doNotCallId: string | null;
}

/**
 * The check every outbound dial passes before anything is dialled: POST /calls/start and every campaign
 * dial and retry (they start calls through the same command). In order: the do-not-call list, the calling
 * window in the callee's local time, then inside the admitting transaction, under the number's lock, the
 * do-not-call list once more (under its own lock, see do-not-call-lock.ts) and the frequency caps (so two
 * dials cannot both take the last attempt). A stopped dial is written to the decision log
 * and refused with the rule's code; the campaigns service skips the contact (do-not-call) or defers it to
 * the error's retry_at (window, caps).
 */
@Injectable()
export class ContactPolicy {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: ContactPolicySettingsService,
    private readonly clock: Clock,
  ) {}

  /** Do-not-call and the calling window; throws the rule's AppError, else the permit for the caps. */
  async check(
    partnerId: string,
    number: string,
    origin: StartCallOrigin | null,
    channel: ContactChannel = 'call',
  ): Promise<DialPermit> {
    const timer = policyCheckSeconds.startTimer();
    const permit = { partnerId, number, origin, channel };
    const [[match], settings] = await Promise.all([
      doNotCallMatches(this.dataSource.manager, partnerId, number),
      this.settings.get(partnerId),
    ]);
    if (match) {
      timer({ result: 'stopped' });
      return this.stop(doNotCallStop(permit, match));
    }
    const now = this.clock.now();
    const window = this.windowOf(settings.calling_window, settings.windows_apply_to_single_calls, origin);
    const { zone } = calleeZone(
      number,
      now,
      origin?.timezone,
      window?.timezone ?? settings.calling_window?.timezone,
    );
    if (window) {
      const verdict = windowVerdict(window, zone, now);
      if (!verdict.open) {
        timer({ result: 'stopped' });
        const hours = `${window.start}-${window.end} (${window.days.join(', ')})`;
        return this.stop({
          permit,
          rule: 'calling_window',
          code: ErrorCode.OUTSIDE_CALLING_WINDOW,
          message:
            `${number}'s local time (${describeLocal(now, zone)}) is outside the calling window ${hours}; ` +
            `it opens at ${verdict.opensAt.toISOString()} (${describeLocal(verdict.opensAt, zone)}); ${notDone(channel)}`,
          detail: `outside the calling window ${hours} in ${zone}; opens ${describeLocal(verdict.opensAt, zone)}`,
          retryAt: verdict.opensAt,
          doNotCallId: null,
        });
      }
    }
    timer({ result: 'allowed' });
    return {
      ...permit,
      zone,
      maxPerDay: settings.max_attempts_per_day,
      maxPer7Days: settings.max_attempts_per_7_days,
    };
  }

  /**
   * The checks made in `em`, the admitting transaction, which holds the number's lock: the do-not-call list
   * again, under its lock (an entry committed after the check before admission, such as an opt-out during
   * another call, must still stop the dial), then the frequency caps: the number's outbound calls since the
   * callee's local midnight and in the last 7 x 24 h. Null when the call is allowed; else the stop to pass to
   * `stop` once the transaction has rolled back.
   */
  async admissionStop(em: EntityManager, permit: DialPermit): Promise<PolicyStop | null> {
    await shareDoNotCallList(em, permit.partnerId);
    const [match] = await doNotCallMatches(em, permit.partnerId, permit.number);
    if (match) return doNotCallStop(permit, match);
    const { maxPerDay, maxPer7Days } = permit;
    if (maxPerDay === null && maxPer7Days === null) return null;
    const timer = policyCapsSeconds.startTimer();
    const stop = await this.countCaps(em, permit);
    timer({ result: stop ? 'stopped' : 'allowed' });
    return stop;
  }

  private async countCaps(em: EntityManager, permit: DialPermit): Promise<PolicyStop | null> {
    const { maxPerDay, maxPer7Days } = permit;
    const now = this.clock.now();
    // An SMS counts among the number's messages, a call among its calls: each channel has its own caps' count.
    const sms = permit.channel === 'message';
    const contacts = tableOf(em, sms ? 'messages' : 'calls');
    const recent = (since: Date, limit: number) =>
      em.query(
        `SELECT created_at FROM ${contacts}
          WHERE partner_id = $1 AND to_number = $2 AND direction = 'outbound' AND created_at >= $3
          ORDER BY created_at DESC LIMIT $4`,
        [permit.partnerId, permit.number, since, limit],
      ) as Promise<{ created_at: Date }[]>;
    const noun = sms ? 'message' : 'call';
    const plural = (count: number) => `${count} ${noun}${count === 1 ? '' : 's'}`;
    const stop = (limit: string, count: number, retryAt: Date): PolicyStop => ({
      permit,
      rule: 'frequency_cap',
      code: ErrorCode.FREQUENCY_CAP_REACHED,
      message: `${permit.number} has had ${plural(count)} ${limit}, the account's cap; the next ${noun} is allowed at ${retryAt.toISOString()}; ${notDone(permit.channel)}`,
      detail: `cap of ${plural(count)} ${limit} reached`,
      retryAt,
      doNotCallId: null,
    });
    if (maxPerDay !== null) {
      const today = await recent(localMidnight(permit.zone, now), maxPerDay);
      if (today.length >= maxPerDay) {
        return stop(`today in ${permit.zone}`, maxPerDay, nextLocalMidnight(permit.zone, now));
      }
    }
    if (maxPer7Days !== null) {
      const week = await recent(new Date(now.getTime() - WEEK_MS), maxPer7Days);
      if (week.length >= maxPer7Days) {
        // The oldest of the last N calls leaves the 7 days first.
        const oldest = new Date(week[maxPer7Days - 1].created_at);
        return stop('in the last 7 days', maxPer7Days, new Date(oldest.getTime() + WEEK_MS));
      }
    }
    return null;
  }

  /** Logs the stopped dial and refuses it with the rule's code (and retry_at where the rule lifts). */
  async stop(stop: PolicyStop): Promise<never> {
    const { permit } = stop;
    const campaignDial = permit.origin !== null;
    await this.dataSource.getRepository(PolicyDecision).insert({
      id: randomUUID(),
      partnerId: permit.partnerId,
      number: permit.number,
      rule: stop.rule,
      outcome: !campaignDial ? 'refused' : stop.rule === 'do_not_call' ? 'skipped' : 'deferred',
      source: campaignDial ? 'campaign' : permit.channel === 'message' ? 'message' : 'single_call',
      campaignId: permit.origin?.campaign_id ?? null,
      contactId: permit.origin?.contact_id ?? null,
      doNotCallId: stop.doNotCallId,
      retryAt: stop.retryAt,
      detail: stop.detail,
    });
    throw new AppError(stop.code, stop.message, { retryAt: stop.retryAt?.toISOString() });
  }

  /** A campaign dial: the campaign's window, else the account's. A single call: the account's, if it applies. */
  private windowOf(
    account: CallingWindow | null,
    applyToSingleCalls: boolean,
    origin: StartCallOrigin | null,
  ): CallingWindow | null {
    if (!origin) return applyToSingleCalls ? account : null;
    if (!origin.calling_window) return account;
    const resolved = resolveCallingWindow(origin.calling_window, 'calling_window');
    // The campaigns service stores only windows that resolve; one that no longer does falls back safely.
    return 'window' in resolved ? resolved.window : account;
  }
}
