import { CallDisposition, HangupSource, TranscriptEntry } from '@vap/contracts';
import { AudioSegment } from '../../recording/wav';
import { OutboundCall } from '../carrier-adapter';
import { SandboxOutcome } from './sandbox-outcomes';
import { AgentLines, CalleeLines, speakingSeconds, withVariables } from './sandbox-script';

/** What the conversation needs from the platform: the agent's replies, the transcript, transfers, hold. */
export interface ConversationPorts {
  reply(history: TranscriptEntry[], userText: string): Promise<string>;
  /** Adds a line to the transcript; callSeconds is the call's own clock when the line has been said. */
  say(role: TranscriptEntry['role'], content: string, callSeconds: number): Promise<TranscriptEntry>;
  transfer(to: string): Promise<boolean>;
  hold(phase: 'start' | 'end', durationSecs: number | null): Promise<void>;
  /** Real-time pause between steps (SANDBOX_STEP_MS); throws CallHangup when the platform ends the call. */
  step(): Promise<void>;
}

/** The platform hangs up the call (e.g. insufficient_balance): the agent says goodbye, then the call ends. */
export class CallHangup extends Error {
  constructor(readonly reason: string) {
    super(`call ended by the platform: ${reason}`);
  }
}

export interface ConversationEnd {
  durationSeconds: number;
  segments: AudioSegment[];
  disposition: CallDisposition;
  endCallReason: string;
  hangupSource: HangupSource;
  hangupCause: string;
}

const BOT_HZ = 440;
const USER_HZ = 294;
const MACHINE_HZ = 620;
export const SANDBOX_HOLD_SECONDS = 20;
const WRAP_UP_BEFORE_CAP = 30;
const MONOLOGUE_ROUNDS_WITHOUT_CAP = 4;

/**
 * One answered sandbox call: the simulated callee's script against the agent (intro message, replies
 * from the LLM adapter with knowledge-base context, farewell). Time is simulated (a turn lasts as long as
 * its words take to say) and compressed to SANDBOX_STEP_MS per turn in real time.
 */
export class SandboxConversation {
  private t = 0;
  private readonly segments: AudioSegment[] = [];
  private readonly history: TranscriptEntry[] = [];

  constructor(
    private readonly call: OutboundCall,
    private readonly variables: Record<string, unknown>,
    private readonly ports: ConversationPorts,
  ) {}

  async run(outcome: SandboxOutcome): Promise<ConversationEnd> {
    try {
      await this.ports.step();
      return await this.script(outcome);
    } catch (err) {
      if (!(err instanceof CallHangup)) throw err;
      // Whatever was being said, the agent's farewell closes the call (a repeated request changes nothing).
      await this.farewell().catch((again: unknown) => {
        if (!(again instanceof CallHangup)) throw again;
      });
      return this.end('completed', err.reason, 'system');
    }
  }

  private async script(outcome: SandboxOutcome): Promise<ConversationEnd> {
    switch (outcome) {
      case 'voicemail':
        return this.voicemail();
      case 'hangup_no_speech':
        await this.intro();
        this.silence(3);
        return this.end('user_hangup_no_speech', 'callee_hung_up', 'callee');
      case 'hold':
        return this.hold();
      case 'long_talker':
        return this.longTalker();
      case 'asks_for_human':
        return this.asksForHuman();
      default:
        return this.conversation();
    }
  }

  private get agent() {
    return this.call.agent;
  }

  private async conversation(): Promise<ConversationEnd> {
    await this.intro();
    await this.exchange(CalleeLines.greeting);
    await this.exchange(CalleeLines.question);
    await this.user(CalleeLines.goodbye);
    await this.farewell();
    return this.end('completed', 'agent_ended_call', 'system');
  }

  private async voicemail(): Promise<ConversationEnd> {
    this.segments.push({ seconds: 4, hz: MACHINE_HZ });
    this.t += 4;
    await this.ports.step();
    if (this.agent.voicemail_detection_enabled) {
      if (this.agent.voicemail_message)
        await this.bot(withVariables(this.agent.voicemail_message, this.variables));
      return this.end('voicemail', 'voicemail_detected', 'system');
    }
    // Without detection the agent talks to the machine until the silence times out.
    await this.intro();
    this.silence(5);
    return this.end('voicemail', 'user_idle_timeout', 'system');
  }

  private async hold(): Promise<ConversationEnd> {
    await this.intro();
    await this.user(CalleeLines.holdRequest);
    await this.ports.hold('start', null);
    this.silence(SANDBOX_HOLD_SECONDS);
    await this.ports.step();
    await this.ports.hold('end', SANDBOX_HOLD_SECONDS);
    await this.exchange(CalleeLines.backFromHold);
    await this.user(CalleeLines.shortGoodbye);
    await this.farewell();
    return this.end('completed', 'agent_ended_call', 'system');
  }

  private async longTalker(): Promise<ConversationEnd> {
    const cap = this.agent.max_call_duration_secs;
    await this.intro();
    let warned = false;
    for (let round = 0; cap !== null || round < MONOLOGUE_ROUNDS_WITHOUT_CAP; round++) {
      const line = CalleeLines.monologue[round % CalleeLines.monologue.length];
      const farewell = speakingSeconds(AgentLines.maxDurationFarewell);
      if (cap !== null && this.t + speakingSeconds(line) + farewell > cap) {
        // The farewell is spoken at the cap: the call lasts exactly max_call_duration_secs.
        this.silence(Math.max(0, cap - farewell - this.t));
        await this.bot(AgentLines.maxDurationFarewell);
        this.t = cap;
        return this.end('completed', 'max_call_duration_reached', 'system');
      }
      await this.user(line);
      if (cap !== null && !warned && this.t >= cap - WRAP_UP_BEFORE_CAP) {
        warned = true;
        await this.bot(AgentLines.wrapUpWarning);
      }
    }
    await this.user(CalleeLines.shortGoodbye);
    await this.farewell();
    return this.end('completed', 'agent_ended_call', 'system');
  }

  private async asksForHuman(): Promise<ConversationEnd> {
    await this.intro();
    await this.user(CalleeLines.askForHuman);
    if (this.agent.transfer_enabled && this.agent.transfer_number) {
      await this.bot(this.agent.transfer_message || AgentLines.defaultTransfer);
      if (await this.ports.transfer(this.agent.transfer_number)) {
        return this.end('transferred', 'transferred', 'system');
      }
    }
    await this.bot(AgentLines.cannotTransfer);
    await this.user(CalleeLines.neverMind);
    await this.farewell();
    return this.end('completed', 'agent_ended_call', 'system');
  }

  private async intro(): Promise<void> {
    if (this.agent.intro_message) await this.bot(withVariables(this.agent.intro_message, this.variables));
  }

  private async farewell(): Promise<void> {
    await this.bot(this.agent.end_call_message || AgentLines.defaultFarewell);
  }

  private async exchange(userLine: string): Promise<void> {
    await this.user(userLine);
    const reply = await this.ports.reply([...this.history.slice(0, -1)], userLine);
    await this.bot(reply);
  }

  private async bot(text: string): Promise<void> {
    await this.speak('bot', text, BOT_HZ);
  }

  private async user(text: string): Promise<void> {
    await this.speak('user', text, USER_HZ);
  }

  private async speak(role: TranscriptEntry['role'], text: string, hz: number): Promise<void> {
    const seconds = speakingSeconds(text);
    this.history.push(await this.ports.say(role, text, this.t + seconds));
    this.segments.push({ seconds, hz }, { seconds: 0.4, hz: 0 });
    this.t += seconds + 0.4;
    await this.ports.step();
  }

  private silence(seconds: number): void {
    if (seconds <= 0) return;
    this.segments.push({ seconds, hz: 0 });
    this.t += seconds;
  }

  private end(
    disposition: CallDisposition,
    endCallReason: string,
    hangupSource: HangupSource,
  ): ConversationEnd {
    const durationSeconds = Math.max(1, Math.round(this.t));
    // The recording is exactly as long as the call: pad or trim the last stretch to the whole seconds.
    const total = this.segments.reduce((a, s) => a + s.seconds, 0);
    if (total < durationSeconds) this.segments.push({ seconds: durationSeconds - total, hz: 0 });
    else if (total > durationSeconds) trim(this.segments, total - durationSeconds);
    return {
      durationSeconds,
      segments: this.segments,
      disposition,
      endCallReason,
      hangupSource,
      hangupCause: 'NORMAL_CLEARING',
    };
  }
}

function trim(segments: AudioSegment[], excess: number): void {
  for (let i = segments.length - 1; i >= 0 && excess > 0; i--) {
    const cut = Math.min(segments[i].seconds, excess);
    segments[i] = { ...segments[i], seconds: segments[i].seconds - cut };
    excess -= cut;
  }
}
