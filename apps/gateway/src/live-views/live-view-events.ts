import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'nats';
import { DomainEvent, DomainEvents } from '@vap/messages';
import { decodeJson, NatsConnectionService } from '@vap/messaging';

/**
 * The domain events that change what a live view shows: a call's status, its transfer, and the end of
 * post-call processing (also of a browser session, whose id is its call_id). Each carries `call_id`.
 */
export const LIVE_VIEW_EVENTS = [
  DomainEvents.callStatusUpdated,
  DomainEvents.callTransferred,
  DomainEvents.sessionCompleted,
] as const;

type Listener = () => void;

/**
 * Tells the live views open on this replica that their call changed. Every replica reads the events as plain
 * NATS messages (outside JetStream, no durable consumer: a view needs them only while it is open, and a missed
 * one is caught by the view's own re-check). One subscription per event subject for the whole process; the
 * views register by account and call id, so an event costs one map lookup.
 */
@Injectable()
export class LiveViewEvents implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LiveViewEvents.name);
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscriptions: Subscription[] = [];

  constructor(private readonly nats: NatsConnectionService) {}

  onApplicationBootstrap(): void {
    for (const subject of LIVE_VIEW_EVENTS) {
      const sub = this.nats.nc.subscribe(this.nats.subject(subject), {
        callback: (err, msg) => {
          if (err) return;
          try {
            const event = decodeJson<DomainEvent<{ call_id?: unknown }>>(msg.data);
            const callId = event.data?.call_id;
            if (event.partnerId && typeof callId === 'string') this.notify(event.partnerId, callId);
          } catch (e) {
            // A malformed event changes nothing: the views' re-check still runs.
            this.logger.debug(`ignored an unreadable ${subject}: ${(e as Error).message}`);
          }
        },
      });
      this.subscriptions.push(sub);
    }
  }

  onModuleDestroy(): void {
    for (const sub of this.subscriptions) sub.unsubscribe();
    this.subscriptions.length = 0;
  }

  /** Calls `listener` on every event of the account's call (or browser session); answers the unwatch. */
  watch(partnerId: string, callId: string, listener: Listener): () => void {
    const key = `${partnerId}:${callId}`;
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(key);
      if (!current) return;
      current.delete(listener);
      if (!current.size) this.listeners.delete(key);
    };
  }

  /** Views registered now (every open view is one). */
  get watching(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  notify(partnerId: string, callId: string): void {
    const set = this.listeners.get(`${partnerId}:${callId}`);
    if (!set) return;
    for (const listener of [...set]) listener();
  }
}
