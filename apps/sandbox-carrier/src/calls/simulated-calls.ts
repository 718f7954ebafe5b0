import {
  ALL_CALLEE_LINES,
  CalleeVoice,
  CarrierBCallResource,
  conferenceRoom,
  dialedNumber,
} from '@vap/carrier-sim';
import { SandboxCarrierConfig } from '../config/sandbox-carrier.config';
import { CallBook } from './call-book';
import { CallPorts, CallSetup, SimulatedCall } from './simulated-call';

export type Log = CallPorts['log'];

/** Why a request about calls was refused, as carrier_b's REST API answers it. */
export class CarrierRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The carrier's calls: placed over REST, each played in the background by a SimulatedCall, bounded by
 * SANDBOX_MAX_LIVE_CALLS. The callee's lines are synthesized once per process, from the first call on.
 */
export class SimulatedCalls {
  private readonly book: CallBook<SimulatedCall>;
  private readonly running = new Set<Promise<void>>();
  private voicePrepared: Promise<void> | undefined;

  constructor(
    private readonly config: SandboxCarrierConfig,
    private readonly voice: CalleeVoice,
    private readonly log: Log,
  ) {
    this.book = new CallBook(config.SANDBOX_MAX_LIVE_CALLS, config.SANDBOX_ENDED_CALLS_KEPT);
  }

  get liveCount(): number {
    return this.book.liveCount;
  }

  place(setup: Omit<CallSetup, 'sid' | 'direction'>): CarrierBCallResource {
    const call = this.admit({ ...setup, sid: CallBook.newSid(), direction: 'outbound-api' });
    this.track(call, () => call.playOutbound());
    return call.resource;
  }

  /** An inbound call: resolves once the number's voice URL has answered, the call goes on in the background. */
  async ring(setup: { from: string; to: string; url: string }): Promise<CarrierBCallResource> {
    const call = this.admit({
      ...setup,
      sid: CallBook.newSid(),
      direction: 'inbound',
      statusCallback: setup.url,
      timeLimitSecs: null,
    });
    let markup = '';
    try {
      markup = await call.deliverInbound();
    } catch (err) {
      this.book.retire(call.resource.sid);
      throw err;
    }
    this.track(call, () => call.continueInbound(markup));
    return call.resource;
  }

  /** The call's resource; undefined when this carrier has no record of it (never placed, or before a restart). */
  find(sid: string): CarrierBCallResource | undefined {
    return this.book.resource(sid);
  }

  /** carrier_b's call list: the known calls to `to` from `from`, newest first, at most `limit`. */
  list(filter: { to?: string; from?: string }, limit: number): CarrierBCallResource[] {
    return this.book.list(filter, limit);
  }

  /**
   * A REST update of a call: `Status=completed|canceled` hangs up, `Twiml` with a <Dial> transfers (a number, or
   * a <Conference> room: the warm transfer's bridge, where the legs stay until the call's time there is up).
   * Undefined when the call is unknown; an ended call is returned as it is.
   */
  update(sid: string, form: URLSearchParams): CarrierBCallResource | undefined {
    const live = this.book.liveCall(sid);
    if (!live) return this.book.resource(sid);
    const status = form.get('Status');
    const twiml = form.get('Twiml');
    if (status === 'completed' || status === 'canceled') {
      live.ask({ kind: 'hangup' });
    } else if (twiml !== null) {
      const room = conferenceRoom(twiml);
      const to = dialedNumber(twiml) ?? (room && `conference:${room}`);
      if (!to) throw new CarrierRefusal(400, 21220, 'Twiml must <Dial> a number or a <Conference>');
      if (!live.ask({ kind: 'transfer', to })) {
        throw new CarrierRefusal(400, 21220, 'Call is not in-progress. Cannot redirect.');
      }
    } else {
      throw new CarrierRefusal(400, 20001, 'Status or Twiml is required');
    }
    return live.resource;
  }

  /** Every live call ends (reported as dropped) and the process may exit. */
  async stop(): Promise<void> {
    for (const call of this.book.liveCalls()) call.stop();
    await Promise.allSettled([...this.running]);
  }

  private admit(setup: CallSetup): SimulatedCall {
    if (!this.book.hasRoom()) {
      throw new CarrierRefusal(
        429,
        20429,
        `Too many live calls (SANDBOX_MAX_LIVE_CALLS ${this.config.SANDBOX_MAX_LIVE_CALLS})`,
      );
    }
    this.prepareVoice();
    const call = new SimulatedCall(setup, { config: this.config, voice: this.voice, log: this.log });
    this.book.add(setup.sid, call);
    return call;
  }

  private track(call: SimulatedCall, play: () => Promise<void>): void {
    const sid = call.resource.sid;
    const job: Promise<void> = play()
      .catch((err: Error) => this.log('error', `call ${sid} stopped: ${err.stack ?? err.message}`))
      .finally(() => {
        this.running.delete(job);
        this.book.retire(sid);
      });
    this.running.add(job);
  }

  /**
   * The callee's lines, synthesized in the background on the first call while it rings, so the callee never
   * pauses mid-call while a line is synthesized (the media clock, and the bill, would run through it).
   */
  private prepareVoice(): void {
    this.voicePrepared ??= this.voice.prepare(ALL_CALLEE_LINES).catch((err: Error) => {
      this.voicePrepared = undefined;
      this.log('warn', `could not prepare the callee's lines: ${err.message}`);
    });
  }
}
