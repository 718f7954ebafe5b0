// user_idle_enabled: the one owner of the idle timer. It listens to the conversation's events and arms or stops
// itself (as pipecat's UserIdleController does); nothing else arms or stops it.

import { Phrases } from '../phrases';
import type { ConversationPort } from '../conversation-port';

/**
 * After the agent finished speaking, this much media time of caller silence brings "Are you still there?"; the
 * same again after the reprompt ends the call (user_idle_timeout). 8 s is long enough for a caller to think or
 * look something up, short enough that a dropped caller is not billed for long.
 */
export const IDLE_REPROMPT_MS = 8000;
/**
 * Idle is silence the caller's line carried, not time alone: a stream that stalled (no frames for a while, on
 * the carrier's side or while this process was busy) is waited out until the caller's audio has covered the
 * silence, short of this much slack for frames still on their way.
 */
export const IDLE_STREAM_SLACK_MS = 1000;

export class IdleController {
  private cancel: (() => void) | null = null;
  private strikes = 0;

  constructor(private readonly port: ConversationPort) {
    const { events } = port;
    // Wherever the agent may have fallen quiet with the caller quiet too, the silence starts counting.
    events.on('live', ({ intro }) => !intro && this.arm());
    events.on('agentLineDone', () => this.arm());
    events.on('turnEnded', () => this.arm());
    events.on('callerWords', () => this.arm());
    // The caller (or the agent's own turn) has the floor: no silence to count, and the strikes start over.
    events.on('callerStarted', () => {
      this.stop();
      this.strikes = 0;
    });
    // A person typing a line is there, though silent: the silence counts from the last key, strikes start over.
    events.on('callerTyping', () => {
      this.stop();
      this.strikes = 0;
      this.arm();
    });
    events.on('turnStarted', () => this.stop());
    events.on('ending', () => this.stop());
    events.on('closed', () => this.stop());
  }

  /** Whether the silence timer runs. */
  get armed(): boolean {
    return this.cancel !== null;
  }

  /** Starts the silence timer when the agent has finished and the caller is quiet. */
  private arm(): void {
    const { port } = this;
    if (!port.agent.userIdleEnabled || port.ending || !port.live) return;
    if (this.cancel || port.turn || port.voice.busy || port.caller.speaking) return;
    this.waitForSilence(IDLE_REPROMPT_MS, port.caller.heardMs);
  }

  /** Waits `mediaMs`, then strikes once the caller's audio since `heardFromMs` covers the idle silence. */
  private waitForSilence(mediaMs: number, heardFromMs: number): void {
    const { port } = this;
    this.cancel = port.clock.after(mediaMs, () => {
      this.cancel = null;
      if (port.ending || port.turn || port.voice.busy || port.caller.speaking) return;
      const unheardMs = IDLE_REPROMPT_MS - (port.caller.heardMs - heardFromMs);
      if (unheardMs > IDLE_STREAM_SLACK_MS) return this.waitForSilence(unheardMs, heardFromMs);
      this.strikes++;
      if (this.strikes === 1) port.say(Phrases.idleReprompt);
      else void port.endWith('user_idle_timeout', Phrases.idleGoodbye, { interrupt: false });
    });
  }

  private stop(): void {
    this.cancel?.();
    this.cancel = null;
  }
}
