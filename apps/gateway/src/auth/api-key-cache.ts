import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'nats';
import { DomainEvent, DomainEvents, PartnerContext, ResourceScope } from '@vap/messages';
import { decodeJson, encodeJson, NatsConnectionService } from '@vap/messaging';
import { Clock } from '@vap/runtime';
import { GatewayConfig } from '../config/gateway.config';

/** A valid key as its last lookup found it: what a request needs without asking Postgres. */
export interface CachedApiKey {
  keyId: string;
  partner: PartnerContext;
  /** The key's scopes, expanded (`read_only`, `:write` includes `:read`); null: full access. */
  scopes: ReadonlySet<ResourceScope> | null;
  /** When the key's last_used_at was last written (ms since the epoch), to write it at most once a minute. */
  lastUsedAt: number | null;
}

interface Entry extends CachedApiKey {
  expiresAt: number;
}

/** Taken before a database read of a key (`readMark`), handed to `set` with what the read found. */
export interface ReadMark {
  /** The cache's forget count then: a forget since means the read may hold what was forgotten. */
  generation: number;
  /** When the read began (ms since the epoch): what it found is no fresher than this. */
  at: number;
}

/**
 * Core NATS, no reply, gateways only: every replica drops its cached keys of `{ partner_id }`. Account changes
 * need no notice of their own: each records events.partner.updated, which the replicas also listen to.
 */
const AUTH_FORGET_SUBJECT = 'gateway.auth.forget';

/** Keys kept at most; a full cache drops its oldest entry (a valid key is looked up again, nothing else). */
const MAX_ENTRIES = 10_000;

/**
 * Valid API keys by the SHA-256 of the presented key (the stored hash), so an authenticated request costs no
 * database read. Only keys that authenticated are kept; an unknown key always goes to Postgres.
 *
 * A change of a key or its account takes effect:
 * - at once on the replica that made it (revocation, an operator's change of status, balance or limits);
 * - on every other replica when the notice reaches it over NATS: `gateway.auth.forget` for a revocation,
 *   the account's `events.partner.updated` for every change of the account;
 * - and in any case within API_KEY_CACHE_TTL_MS (5 s by default), the bound should a notice be lost.
 */
@Injectable()
export class ApiKeyCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyCache.name);
  private readonly entries = new Map<string, Entry>();
  private readonly subscriptions: Subscription[] = [];
  /** One more on every forget: a lookup that read the database before a forget must not cache what it read. */
  private generation = 0;

  constructor(
    private readonly config: GatewayConfig,
    private readonly nats: NatsConnectionService,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    const forget = (subject: string, partnerOf: (data: Uint8Array) => string | null) => {
      const sub = this.nats.nc.subscribe(this.nats.subject(subject), {
        callback: (err, msg) => {
          if (err) return;
          try {
            const partnerId = partnerOf(msg.data);
            if (partnerId) this.forgetPartner(partnerId);
          } catch {
            // A malformed notice changes nothing; the TTL still bounds what it meant to clear.
          }
        },
      });
      this.subscriptions.push(sub);
    };
    forget(AUTH_FORGET_SUBJECT, (data) => decodeJson<{ partner_id?: string }>(data).partner_id ?? null);
    forget(DomainEvents.partnerUpdated, (data) => decodeJson<DomainEvent>(data).partnerId);
  }

  onModuleDestroy(): void {
    for (const sub of this.subscriptions) sub.unsubscribe();
  }

  get(keyHash: string): CachedApiKey | null {
    if (this.config.API_KEY_CACHE_TTL_MS === 0) return null;
    const entry = this.entries.get(keyHash);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(keyHash);
      return null;
    }
    return entry;
  }

  /** Pass to `set`: taken before the database read whose result `set` keeps. */
  readMark(): ReadMark {
    return { generation: this.generation, at: this.clock.now().getTime() };
  }

  /**
   * Keeps a key read from the database, unless a forget came in since the read began. It expires a TTL after the
   * read began, not after it answered: a revocation committed during a slow read holds no longer than the TTL.
   */
  set(keyHash: string, key: CachedApiKey, read: ReadMark): void {
    if (this.config.API_KEY_CACHE_TTL_MS === 0 || read.generation !== this.generation) return;
    this.entries.delete(keyHash);
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: the first entry is the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const expiresAt = read.at + this.config.API_KEY_CACHE_TTL_MS;
    if (expiresAt <= this.clock.now().getTime()) return;
    this.entries.set(keyHash, { ...key, expiresAt });
  }

  /** Drops the account's keys here. */
  forgetPartner(partnerId: string): void {
    this.generation += 1;
    for (const [hash, entry] of this.entries) {
      if (entry.partner.id === partnerId) this.entries.delete(hash);
    }
  }

  /**
   * Drops the account's keys here and tells the other replicas to (after a change committed outside the
   * account's events, such as a revocation). Fire and forget: the TTL bounds a lost notice.
   */
  forgetPartnerEverywhere(partnerId: string): void {
    this.forgetPartner(partnerId);
    try {
      this.nats.nc.publish(this.nats.subject(AUTH_FORGET_SUBJECT), encodeJson({ partner_id: partnerId }));
    } catch (err) {
      this.logger.warn(`could not tell other replicas to forget ${partnerId}'s keys: ${String(err)}`);
    }
  }
}
