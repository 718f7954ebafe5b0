import {
  CalleeOutcome,
  calleeOutcome,
  calleeScript,
  CalleeVoice,
  CARRIER_B_SIGNATURE_HEADER,
  CarrierBCallResource,
  CarrierBCallStatus,
  dialedNumber,
  PhoneEnd,
  postSignedForm,
  rfc2822,
  signCarrierB,
  SimulatedPhone,
  streamInstructionOf,
} from '@vap/carrier-sim';
import { rebased, SandboxCarrierConfig } from '../config/sandbox-carrier.config';
import { hangupFields, PlatformRequest, TRANSFERRED_LEG_SECONDS } from './hangup-fields';

/** Thrown out of a ringing step when the platform hangs up before the answer. */
class RingingHangup extends Error {}
/** Thrown out of any wait when this process is stopping. */
class Stopping extends Error {}

/** After the media plane closes the stream, how long the phone waits for the hang-up request it comes with. */
const STREAM_CLOSE_GRACE_MS = 1_000;

export interface CallSetup {
  sid: string;
  direction: 'outbound-api' | 'inbound';
  from: string;
  to: string;
  /** The answer URL (outbound) or the number's voice URL (inbound). */
  url: string;
  /** Where status callbacks go (inbound calls: the voice URL as well). */
  statusCallback: string | null;
  /** TimeLimit: the call is cut once answered this long, seconds. */
  timeLimitSecs: number | null;
}

export interface CallPorts {
  config: SandboxCarrierConfig;
  voice: CalleeVoice;
  log: (level: 'warn' | 'error', message: string) => void;
}

/**
 * One simulated call, carrier_b's way: status callbacks while it rings (SANDBOX_STEP_MS apart), the
 * answer URL fetched on answer, and the callee's phone on the media stream its markup names until someone
 * hangs up; the final callback carries the call's time. Outcome by the callee's number (see outcomes).
 */
export class SimulatedCall {
  readonly resource: CarrierBCallResource;
  private sequence = 0;
  private request: PlatformRequest | null = null;
  private phone: SimulatedPhone | null = null;
  private wake: (() => void) | null = null;
  private stopping = false;
  private answeredAt: number | null = null;

  constructor(
    private readonly setup: CallSetup,
    private readonly ports: CallPorts,
  ) {
    this.resource = {
      sid: setup.sid,
      account_sid: ports.config.SANDBOX_ACCOUNT_SID,
      to: setup.to,
      from: setup.from,
      status: setup.direction === 'inbound' ? 'ringing' : 'queued',
      direction: setup.direction,
      duration: null,
      date_created: rfc2822(new Date()),
      start_time: null,
      end_time: null,
      answered_by: null,
    };
  }

  get answered(): boolean {
    return this.answeredAt !== null;
  }

  /**
   * The platform ends or redirects the call (REST update). The first request decides; a ringing call has
   * nobody to transfer (false).
   */
  ask(request: PlatformRequest): boolean {
    if (request.kind === 'transfer' && !this.answered) return false;
    if (this.request) return true;
    this.request = request;
    void this.phone?.disconnect();
    this.wake?.();
    return true;
  }

  /** This process is stopping: the call ends now, reported like a dropped call. */
  stop(): void {
    this.stopping = true;
    void this.phone?.disconnect();
    this.wake?.();
  }

  /** An outbound call: rings, then answers (or not) by the callee number's outcome. */
  async playOutbound(): Promise<void> {
    const outcome = calleeOutcome(this.setup.to);
    try {
      await this.ring(outcome);
    } catch (err) {
      if (err instanceof RingingHangup) return this.end('canceled', {});
      if (err instanceof Stopping)
        return this.end('failed', { ErrorMessage: 'The carrier dropped the call' });
      throw err;
    }
    if (outcome === 'failed' || outcome === 'busy' || outcome === 'no_answer') return;
    this.answeredAt = Date.now();
    this.resource.answered_by = outcome === 'voicemail' ? 'machine_start' : 'human';
    this.setStatus('in-progress');
    // The carrier's machine detection has its answer by the time the call is answered.
    await this.callback({ CallStatus: 'in-progress', AnsweredBy: this.resource.answered_by });
    const markup = await this.fetchMarkup({ CallStatus: 'in-progress' });
    await this.converse(outcome, markup);
  }

  /** An inbound call rings the number: its voice URL is asked what to do; resolves with its markup. */
  async deliverInbound(): Promise<string> {
    return this.fetchMarkup({ CallStatus: 'ringing' });
  }

  /** The rest of an inbound call once the platform's markup is known. */
  async continueInbound(markup: string): Promise<void> {
    const outcome = inboundOutcome(this.setup.from);
    if (!streamInstructionOf('carrier_b', markup)) {
      // Rejected, or handed to a number: the call is over for the platform.
      return this.end(/<Reject\b/.test(markup) ? 'busy' : 'completed', { CallDuration: '0' });
    }
    this.answeredAt = Date.now();
    this.resource.answered_by = 'human';
    this.setStatus('in-progress');
    await this.converse(outcome, markup);
  }

  private async converse(outcome: CalleeOutcome, markup: string): Promise<void> {
    const stream = streamInstructionOf('carrier_b', markup);
    let end: PhoneEnd;
    if (!stream) {
      // The markup opens no stream (a <Dial> or <Say>): the call goes on without the platform a moment.
      end = {
        kind: 'stream_closed',
        mediaMs: dialedNumber(markup) ? TRANSFERRED_LEG_SECONDS * 1000 : 0,
        spoke: false,
      };
    } else {
      end = await this.runPhone(outcome, stream.url, stream.parameters);
    }
    if (end.kind === 'stream_closed' && !this.request) await this.sleep(STREAM_CLOSE_GRACE_MS);
    if (this.stopping && !this.request) {
      return this.end('failed', {
        ErrorMessage: 'The carrier dropped the call',
        CallDuration: secondsOf(end),
      });
    }
    if (end.kind === 'stream_failed')
      this.ports.log('warn', `call ${this.setup.sid}: media stream failed: ${end.error}`);
    if (this.request?.kind === 'transfer') {
      await this.sleep((TRANSFERRED_LEG_SECONDS * 1000) / this.ports.config.MEDIA_TIME_SCALE);
    }
    await this.end('completed', hangupFields(end, this.request));
  }

  private async runPhone(
    outcome: CalleeOutcome,
    url: string,
    parameters: Record<string, string>,
  ): Promise<PhoneEnd> {
    const config = this.ports.config;
    const phone = new SimulatedPhone({
      url,
      connectUrl: rebased(url, config.mediaBase, config.SANDBOX_MEDIA_URL),
      headers: { [CARRIER_B_SIGNATURE_HEADER]: signCarrierB(config.SANDBOX_AUTH_TOKEN, url, {}) },
      callSid: this.setup.sid,
      accountSid: config.SANDBOX_ACCOUNT_SID,
      customParameters: parameters,
      voice: this.ports.voice,
      timeScale: config.MEDIA_TIME_SCALE,
      onError: (err) =>
        this.ports.log('error', `phone of call ${this.setup.sid}: ${err.stack ?? err.message}`),
    });
    this.phone = phone;
    if (this.request || this.stopping) void phone.disconnect();
    const limit = this.setup.timeLimitSecs;
    const timer = limit
      ? setTimeout(() => this.ask({ kind: 'hangup' }), (limit * 1000) / config.MEDIA_TIME_SCALE)
      : undefined;
    try {
      return await phone.run(
        calleeScript(outcome, {
          hold: (phase, durationSecs) =>
            this.callback({
              CallStatus: 'in-progress',
              CallbackSource: 'hold-events',
              HoldEvent: phase,
              HoldKind: 'carrier_hold',
              ...(durationSecs !== null ? { HoldDuration: String(durationSecs) } : {}),
            }),
        }),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** The call up to the answer, or to its end when nobody answers. */
  private async ring(outcome: CalleeOutcome): Promise<void> {
    await this.step();
    this.setStatus('initiated');
    await this.callback({ CallStatus: 'initiated' });
    await this.step();
    if (outcome === 'failed') {
      return this.end('failed', {
        HangupCause: 'NETWORK_OUT_OF_ORDER',
        HangupSource: 'carrier',
        ErrorMessage: 'The carrier could not connect the call',
      });
    }
    if (outcome === 'busy') return this.end('busy', { HangupCause: 'USER_BUSY', HangupSource: 'callee' });
    this.setStatus('ringing');
    await this.callback({ CallStatus: 'ringing' });
    await this.step();
    await this.step();
    if (outcome === 'no_answer') {
      return this.end('no-answer', { HangupCause: 'NO_ANSWER', HangupSource: 'carrier' });
    }
  }

  private async step(): Promise<void> {
    this.interrupt();
    await this.sleep(this.ports.config.SANDBOX_STEP_MS);
    this.interrupt();
  }

  private interrupt(): void {
    if (this.stopping) throw new Stopping();
    if (this.request) throw new RingingHangup();
  }

  private async end(status: CarrierBCallStatus, fields: Record<string, string>): Promise<void> {
    this.setStatus(status);
    this.resource.end_time = rfc2822(new Date());
    this.resource.duration = fields.CallDuration ?? '0';
    await this.callback({ ...fields, CallStatus: status, CallDuration: this.resource.duration });
  }

  private setStatus(status: CarrierBCallStatus): void {
    this.resource.status = status;
    if (status === 'in-progress') this.resource.start_time = rfc2822(new Date());
  }

  private fields(extra: Record<string, string>): Record<string, string> {
    return {
      CallSid: this.setup.sid,
      AccountSid: this.ports.config.SANDBOX_ACCOUNT_SID,
      From: this.setup.from,
      To: this.setup.to,
      Direction: this.setup.direction,
      ApiVersion: '2010-04-01',
      ...extra,
    };
  }

  /** The answer URL's markup (empty when the platform did not answer 200). */
  private async fetchMarkup(extra: Record<string, string>): Promise<string> {
    try {
      const reply = await postSignedForm({
        url: this.setup.url,
        target: this.callbackTarget(this.setup.url),
        authToken: this.ports.config.SANDBOX_AUTH_TOKEN,
        fields: this.fields(extra),
        attempts: 3,
      });
      return reply.status === 200 ? reply.body : '';
    } catch (err) {
      this.ports.log('warn', `call ${this.setup.sid}: answer URL failed: ${(err as Error).message}`);
      return '';
    }
  }

  private async callback(extra: Record<string, string>): Promise<void> {
    const url = this.setup.statusCallback;
    if (!url) return;
    try {
      const reply = await postSignedForm({
        url,
        target: this.callbackTarget(url),
        authToken: this.ports.config.SANDBOX_AUTH_TOKEN,
        fields: this.fields({
          SequenceNumber: String(this.sequence++),
          Timestamp: rfc2822(new Date()),
          CallbackSource: 'call-progress-events',
          ...extra,
        }),
        attempts: 5,
      });
      if (reply.status >= 400) {
        this.ports.log(
          'warn',
          `call ${this.setup.sid}: callback ${extra.CallStatus} refused with ${reply.status}`,
        );
      }
    } catch (err) {
      this.ports.log('error', `call ${this.setup.sid}: callback to ${url} failed: ${(err as Error).message}`);
    }
  }

  private callbackTarget(url: string): string {
    return rebased(url, this.ports.config.callbackBase, this.ports.config.SANDBOX_CALLBACK_URL);
  }

  /** Real-time wait that a request for the call or a shutdown cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        if (this.wake === wake) this.wake = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wake = wake;
    });
  }
}

function secondsOf(end: PhoneEnd): string {
  return String(Math.max(1, Math.ceil(end.mediaMs / 1000)));
}

/** The caller of an inbound call plays the outcomes that need an answered call; else a conversation. */
function inboundOutcome(fromNumber: string): CalleeOutcome {
  const outcome = calleeOutcome(fromNumber);
  return [
    'hangup_no_speech',
    'hold',
    'long_talker',
    'asks_for_human',
    'phone_menu',
    'keypad_entry',
    'calls_function',
  ].includes(outcome)
    ? outcome
    : 'conversation';
}
