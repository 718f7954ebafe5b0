import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallStatus, VoiceReplicaHeartbeat } from '@vap/messages';
import { HeartbeatBucket, NatsConnectionService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { Clock, PeriodicTask } from '@vap/runtime';
import { RawCarrierEvent } from '../../../progress/raw-carrier-event';
import { CallTransports } from '../../../carriers/call-transport';
import { CallsConfig } from '../../../config/calls.config';
import { EndReasons } from '../../../progress/end-reasons';
import { completedIfAnswered, platformEndedCall } from '../../../progress/platform-ended-call';
import { wakePostCall } from '../../../work-queue/post-call-jobs';
import { CallProgressService } from '../../../progress/call-progress.service';
import { carrierCallOfRow } from '../../../carriers/carrier-call';

const LIVE_STATUSES: readonly CallStatus[] = ['pending', 'ringing', 'in_progress'];

/** A claimed call is claimed again, and its failed hang-up no longer waited for, after this long. */
const RETRY_SECS = 10;

/** provider_event of the end of a call whose voice replica was lost. */
const VOICE_REPLICA_LOST_EVENT = 'voice-replica-lost';

interface LostCall {
  id: string;
  partner_id: string;
  connection_id: string;
  provider: RawCarrierEvent['provider'];
  provider_call_id: string | null;
  carrier_leg_id: string | null;
  status: CallStatus;
  /** How long the call has run by its own clock, or since its answer. */
  seconds: number | null;
  /** An earlier claim's hang-up failed: this time the call ends whatever the carrier says. */
  retry: boolean;
}

/**
 * Ends the live calls of voice replicas that are gone. A call's media stream lives in one voice replica's
 * memory (recorded at attach); a replica that is killed (SIGKILL, OOM, lost node) reports nothing, so its
 * calls would stay live at the carrier, in silence, holding the partner's slot and running up the bill until
 * the stale sweep. Every VOICE_REPLICA_CHECK_MS each calls replica looks for live streams whose voice replica
 * has no heartbeat (VoiceReplicaHeartbeat: gone for longer than its lapse, or signed off) and ends them like
 * any end: the carrier hangs up, an answered call completes and is billed for the time it ran, an unanswered
 * one fails, end_call_reason voice_replica_lost; the transcript reported so far stays, the slot is released,
 * post-call processing runs at once (no end-of-stream report will come) and session.completed follows.
 */
@Injectable()
export class LostVoiceReplicaReaper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(LostVoiceReplicaReaper.name);
  private readonly heartbeats: HeartbeatBucket;
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: CallsConfig,
    nats: NatsConnectionService,
    private readonly transports: CallTransports,
    private readonly progress: CallProgressService,
    clock: Clock,
  ) {
    this.heartbeats = new HeartbeatBucket(nats, VoiceReplicaHeartbeat, () => clock.now().getTime());
    this.task = new PeriodicTask({
      label: 'lost voice replica check',
      intervalMs: config.VOICE_REPLICA_CHECK_MS,
      runAtStart: true,
      run: () => this.reap(),
      log: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** Ends the live calls of every voice replica without a heartbeat; answers how many it ended. */
  async reap(): Promise<number> {
    const replicas = (await this.dataSource.query(
      `SELECT DISTINCT s.voice_replica_id AS id
         FROM ${tableOf(this.dataSource, 'call_sessions')} s
         JOIN ${tableOf(this.dataSource, 'calls')} c ON c.id = s.call_id
        WHERE s.media_stream = 'live' AND s.voice_replica_id IS NOT NULL AND c.status = ANY($1::text[])`,
      [LIVE_STATUSES],
    )) as { id: string }[];
    let ended = 0;
    for (const { id } of replicas) {
      let alive: boolean;
      try {
        alive = await this.heartbeats.isAlive(id);
      } catch (err) {
        // NATS cannot tell now: no call is ended on a guess.
        this.logger.warn(`voice replica heartbeats unreadable: ${(err as Error).message}`);
        return ended;
      }
      if (alive) continue;
      const calls = await this.claim(id);
      if (calls.length)
        this.logger.warn(`voice replica ${id} is gone; ending its ${calls.length} live call(s)`);
      for (const call of calls) {
        if (await this.end(call)) ended++;
      }
    }
    return ended;
  }

  /**
   * Marks the replica's live calls as being ended here, so one calls replica acts on each: none that another
   * claimed less than RETRY_SECS ago, or that is locked by its progress right now (the next sweep sees it).
   */
  private async claim(replicaId: string): Promise<LostCall[]> {
    const calls = tableOf(this.dataSource, 'calls');
    const sessions = tableOf(this.dataSource, 'call_sessions');
    return (await this.dataSource.query(
      `WITH lost AS (
         SELECT c.id, COALESCE(c.end_requested_reason = $3, false) AS retry
           FROM ${calls} c JOIN ${sessions} s ON s.call_id = c.id
          WHERE s.voice_replica_id = $1 AND s.media_stream = 'live' AND c.status = ANY($2::text[])
            AND (c.end_requested_reason IS DISTINCT FROM $3 OR c.end_requested_at < now() - make_interval(secs => $4))
          FOR UPDATE OF c SKIP LOCKED
       ), claimed AS (
         UPDATE ${calls} c SET end_requested_at = now(), end_requested_reason = $3
           FROM lost l, ${sessions} s
          WHERE c.id = l.id AND s.call_id = c.id
         RETURNING c.id, c.partner_id, c.connection_id, c.provider, c.provider_call_id, c.carrier_leg_id,
                   c.status, l.retry,
                   GREATEST(s.live_seconds::float8, EXTRACT(EPOCH FROM now() - c.started_at)::float8) AS seconds
       )
       SELECT * FROM claimed`,
      [replicaId, LIVE_STATUSES, EndReasons.voiceReplicaLost, RETRY_SECS],
    )) as LostCall[];
  }

  private async end(call: LostCall): Promise<boolean> {
    const direct = this.transports.directOf(call.provider);
    if (direct) {
      // A call with no carrier (a browser session, no call.status.updated) ends (and is charged) at once.
      await direct.endNow(call.id, EndReasons.voiceReplicaLost);
      await this.dataSource.transaction(async (em) => {
        await em.query(
          `UPDATE ${tableOf(em, 'call_sessions')} SET media_stream = 'ended' WHERE call_id = $1 AND media_stream = 'live'`,
          [call.id],
        );
        await wakePostCall(em, call.id);
      });
      return true;
    }
    if (call.provider_call_id && !(await this.hangup(call)) && !call.retry) {
      // The callee may still be on the line: the next claim asks the carrier again, then ends it regardless.
      return false;
    }
    // An answered call completes, billed for the seconds it ran; an unanswered one failed.
    const end = platformEndedCall(call, {
      event: VOICE_REPLICA_LOST_EVENT,
      hangupCause: 'VOICE_REPLICA_LOST',
      endCallReason: EndReasons.voiceReplicaLost,
      ...completedIfAnswered(
        call,
        'The media server carrying the call stopped before it was answered',
        call.seconds,
      ),
    });
    const result = await this.progress.apply({ callId: call.id }, end);
    await this.dataSource.transaction(async (em) => {
      // No end-of-stream report will come: post-call processing goes on with the transcript it has.
      await em.query(
        `UPDATE ${tableOf(em, 'call_sessions')} SET media_stream = 'ended' WHERE call_id = $1 AND media_stream = 'live'`,
        [call.id],
      );
      await wakePostCall(em, call.id);
    });
    return result.applied;
  }

  private async hangup(call: LostCall): Promise<boolean> {
    try {
      const carrier = this.transports.carrierOf(call.provider);
      await carrier.hangup(carrierCallOfRow(call), EndReasons.voiceReplicaLost);
      return true;
    } catch (err) {
      this.logger.warn(`call ${call.id}: hang-up failed: ${(err as Error).message}`);
      return false;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
