import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'nats';
import { decodeJson, encodeJson, NatsConnectionService } from '@vap/messaging';
import { CustomFunction } from './entities/custom-function.entity';

/**
 * Core NATS, no reply, agents replicas only: every replica drops its cached row of `{ function_id }`. A plain
 * subscription (no queue group), so each replica hears it.
 */
export const CUSTOM_FUNCTION_FORGET_SUBJECT = 'agents.custom_function.forget';

/** How long a row read from the database serves invocations: the bound on staleness should a notice be lost. */
export const CUSTOM_FUNCTION_CACHE_TTL_MS = 5_000;

/** Rows kept at most; a full cache drops its oldest entry (the row is read again, nothing else). */
const MAX_ENTRIES = 5_000;

interface Entry {
  fn: CustomFunction;
  expiresAt: number;
}

/**
 * Functions' rows by id, so that a call's tool call reaches the partner without a database read first (the
 * platform's own time per tool call is a target of its own). A change of a function (update, new signing
 * secret, deletion) takes effect at once on the replica that made it, on the others when the notice reaches
 * them, and in any case within CUSTOM_FUNCTION_CACHE_TTL_MS.
 */
@Injectable()
export class CustomFunctionCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CustomFunctionCache.name);
  private readonly entries = new Map<string, Entry>();
  private subscription: Subscription | null = null;
  /** One more on every forget: a read begun before a forget must not cache what it read. */
  private generation = 0;

  constructor(private readonly nats: NatsConnectionService) {}

  onApplicationBootstrap(): void {
    this.subscription = this.nats.nc.subscribe(this.nats.subject(CUSTOM_FUNCTION_FORGET_SUBJECT), {
      callback: (err, msg) => {
        if (err) return;
        try {
          const id = decodeJson<{ function_id?: unknown }>(msg.data).function_id;
          if (typeof id === 'string') this.forget(id);
        } catch {
          // A malformed notice changes nothing; the TTL still bounds what it meant to clear.
        }
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** The cached row of the partner's function, or null (not cached, expired, or another partner's). */
  get(partnerId: string, id: string): CustomFunction | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(id);
      return null;
    }
    return entry.fn.partnerId === partnerId ? entry.fn : null;
  }

  /** Pass to `set`: taken before the database read whose row `set` keeps. */
  get version(): number {
    return this.generation;
  }

  set(fn: CustomFunction, readAt: number): void {
    if (readAt !== this.generation) return;
    this.entries.delete(fn.id);
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: the first entry is the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(fn.id, { fn, expiresAt: Date.now() + CUSTOM_FUNCTION_CACHE_TTL_MS });
  }

  forget(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }

  /** After a change has committed: drops the row here and tells the other replicas (fire and forget). */
  forgetEverywhere(id: string): void {
    this.forget(id);
    try {
      this.nats.nc.publish(
        this.nats.subject(CUSTOM_FUNCTION_FORGET_SUBJECT),
        encodeJson({ function_id: id }),
      );
    } catch (err) {
      this.logger.warn(`could not tell other replicas to forget function ${id}: ${String(err)}`);
    }
  }
}
