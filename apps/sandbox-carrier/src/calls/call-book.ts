import { randomBytes } from 'node:crypto';
import { CarrierBCallResource } from '@vap/carrier-sim';

/**
 * The calls this carrier knows: live ones (bounded: a placement beyond the limit is refused) and the last
 * ended ones, kept so the platform can still read their resource. Nothing survives a restart: a call the
 * book does not know is gone, and the API answers for it as a carrier does for a call it has no record of.
 */
export class CallBook<T extends { resource: CarrierBCallResource }> {
  private readonly live = new Map<string, T>();
  private readonly ended = new Map<string, CarrierBCallResource>();

  constructor(
    private readonly maxLive: number,
    private readonly endedKept: number,
  ) {}

  get liveCount(): number {
    return this.live.size;
  }

  /** A new CallSid: CA and 32 hex digits, as carrier_b's. */
  static newSid(): string {
    return `CA${randomBytes(16).toString('hex')}`;
  }

  hasRoom(): boolean {
    return this.live.size < this.maxLive;
  }

  add(sid: string, call: T): void {
    this.live.set(sid, call);
  }

  liveCall(sid: string): T | undefined {
    return this.live.get(sid);
  }

  resource(sid: string): CarrierBCallResource | undefined {
    return this.live.get(sid)?.resource ?? this.ended.get(sid);
  }

  /** The call has ended: its final resource stays readable, the oldest ended one is forgotten. */
  retire(sid: string): void {
    const call = this.live.get(sid);
    if (!call) return;
    this.live.delete(sid);
    this.ended.set(sid, call.resource);
    while (this.ended.size > this.endedKept) this.ended.delete(this.ended.keys().next().value!);
  }

  /**
   * The known calls (live and the kept ended ones) matching `filter`, newest first, at most `limit`:
   * carrier_b's call list with its `To` and `From` filters.
   */
  list(filter: { to?: string; from?: string }, limit: number): CarrierBCallResource[] {
    const all = [...this.ended.values(), ...[...this.live.values()].map((c) => c.resource)];
    return all
      .filter((r) => (!filter.to || r.to === filter.to) && (!filter.from || r.from === filter.from))
      .sort((a, b) => Date.parse(b.date_created) - Date.parse(a.date_created))
      .slice(0, limit);
  }

  liveCalls(): T[] {
    return [...this.live.values()];
  }
}
