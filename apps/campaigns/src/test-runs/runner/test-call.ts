import { WebSocket } from 'ws';
import {
  BROWSER_SAMPLE_RATE,
  FRAME_MS,
  pcm16FromBuffer,
  pcm16ToBuffer,
  Resampler,
  resamplePcm16,
  synthesizeOfflineSpeech,
  TELEPHONY_SAMPLE_RATE,
  TextSignalDecoder,
} from '@vap/media';
import type { CallerLines, Exchange } from './caller-lines';

/** Samples of one 20 ms frame of browser audio (16 kHz). */
const FRAME_SAMPLES = (BROWSER_SAMPLE_RATE * FRAME_MS) / 1000;
const SILENCE = new Int16Array(FRAME_SAMPLES);
/**
 * Quiet after the agent's last line (media time) that tells the caller the agent has finished its turn: longer
 * than the gaps between the sentences of one reply, about the pause a person leaves before answering.
 */
export const TURN_GAP_MS = 800;
/** How long the caller waits for the agent to open the call before it speaks first (media time). */
export const FIRST_TURN_WAIT_MS = 4000;
/** How long the caller waits for a reply before it goes on as if one came (media time). */
export const REPLY_WAIT_MS = 15000;
/** Wall time the caller waits for the session's end after it hung up. */
const END_WAIT_MS = 10000;
/** Frames the pump may send in one tick to catch up after a stall; beyond that the clock skips ahead. */
const MAX_CATCH_UP_FRAMES = 10;

export interface TestCallOptions {
  connectUrl: string;
  origin: string;
  /** Media clock speed (MEDIA_TIME_SCALE): frames are paced every 20 ms / timeScale. */
  timeScale: number;
  lines: CallerLines;
  signal: AbortSignal;
}

/** What the caller heard and measured. */
export interface CallReport {
  /** The agent's lines read from its audio (the offline speech's text signal), in order. */
  heard: string[];
  /** The conversation as the caller knows it (the agent's turns from its audio, else from the session's messages). */
  conversation: Exchange[];
  /** Each reply's latency: the end of the caller's line to the agent's first sound, media ms. */
  latenciesMs: number[];
  /** Who ended the session: the agent (or the platform), or the caller once it had nothing more to say. */
  endedBy: 'agent' | 'caller';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The test runner's caller on a browser session's socket, as the web client is on the wire: PCM16 16 kHz frames
 * paced as a microphone sends them (silence between lines), the agent's audio heard and read back with the offline
 * recognition (its text signal), marks acknowledged as played. It takes turns: waits for the agent to finish (its
 * speaking notice off and TURN_GAP_MS of quiet, no tool running), leaves the line's pause, says the line (offline
 * speech the platform's offline STT reads word for word), and so on until the lines run out or the session ends.
 */
export class TestCall {
  private ws?: WebSocket;
  private mediaMs = 0;
  private pending: Int16Array[] = [];
  private pump?: NodeJS.Timeout;
  private clockStart = 0;
  private framesSent = 0;
  private readonly resampler = new Resampler(BROWSER_SAMPLE_RATE, TELEPHONY_SAMPLE_RATE);
  private readonly decoder = new TextSignalDecoder(TELEPHONY_SAMPLE_RATE);
  private readonly heard: string[] = [];
  private readonly shown: string[] = [];
  private readonly conversation: Exchange[] = [];
  private readonly latencies: number[] = [];
  private agentSpeaking = false;
  private toolsRunning = 0;
  private lastStartMs = -1;
  private lastEndMs = -1;
  /** Media time the caller's last line ended; replies are counted after it. */
  private lineEndMs = 0;
  private awaitingReply = false;
  /** Heard and shown lines at the caller's last line: what came after is the agent's turn. */
  private heardMark = 0;
  private shownMark = 0;
  private ended = false;

  constructor(private readonly options: TestCallOptions) {}

  async run(): Promise<CallReport> {
    try {
      await this.connect();
      let first = true;
      for (;;) {
        await this.agentTurn(first);
        first = false;
        if (this.ended) break;
        const line = await this.options.lines.next([...this.conversation], this.options.signal);
        if (!line) break;
        await this.say(line.text, line.pause_ms);
        if (this.ended) break;
      }
      const endedBy = this.ended ? 'agent' : 'caller';
      if (!this.ended) await this.hangUp();
      return {
        heard: [...this.heard],
        conversation: [...this.conversation],
        latenciesMs: [...this.latencies],
        endedBy,
      };
    } finally {
      this.stop();
    }
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.options.connectUrl, { origin: this.options.origin });
      this.ws = ws;
      let started = false;
      ws.on('unexpected-response', (_req, res) =>
        reject(new Error(`the voice service answered the connection with HTTP ${res.statusCode}`)),
      );
      ws.on('error', (err) => {
        if (!started) reject(err);
      });
      ws.on('close', (code, reason) => {
        this.ended = true;
        if (!started)
          reject(new Error(`the voice service refused the session (${code} ${reason.toString()})`));
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return this.hear(data as Buffer);
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(String(data)) as Record<string, unknown>;
        } catch {
          return;
        }
        if (message.type === 'session.started' && !started) {
          started = true;
          this.startPump();
          resolve();
        } else this.notice(message);
      });
    });
  }

  private notice(message: Record<string, unknown>): void {
    switch (message.type) {
      case 'mark':
        // Played as soon as received: the caller plays nothing aloud.
        this.send({ type: 'played', name: message.name });
        return;
      case 'agent.speaking':
        this.agentSpeaking = message.speaking === true;
        if (this.agentSpeaking) {
          this.lastStartMs = this.mediaMs;
          if (this.awaitingReply) {
            this.latencies.push(this.mediaMs - this.lineEndMs);
            this.awaitingReply = false;
          }
        } else this.lastEndMs = this.mediaMs;
        return;
      case 'tool':
        if (message.status === 'running') this.toolsRunning++;
        else if (message.status === 'done') this.toolsRunning = Math.max(0, this.toolsRunning - 1);
        return;
      case 'transcript':
        if (
          message.role === 'agent' &&
          message.final !== false &&
          typeof message.text === 'string' &&
          message.text
        )
          this.shown.push(message.text);
        return;
      case 'session.ended':
        this.ended = true;
        return;
    }
  }

  /** The agent's audio: decoded at 8 kHz as the offline STT reads it. */
  private hear(data: Buffer): void {
    const pcm = pcm16FromBuffer(new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice());
    for (const line of this.decoder.push(this.resampler.push(pcm))) this.heard.push(line);
  }

  private send(message: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** The microphone: one 20 ms frame per 20 ms of media time, the line being said or silence. */
  private startPump(): void {
    this.clockStart = Date.now();
    const frameWallMs = FRAME_MS / this.options.timeScale;
    this.pump = setInterval(
      () => {
        const due = Math.floor((Date.now() - this.clockStart) / frameWallMs);
        if (due - this.framesSent > MAX_CATCH_UP_FRAMES) {
          // A stall (a busy event loop): skip ahead rather than send a burst faster than a microphone could.
          this.framesSent = due - MAX_CATCH_UP_FRAMES;
        }
        while (this.framesSent < due) {
          this.framesSent++;
          const frame = this.pending.shift() ?? SILENCE;
          if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(pcm16ToBuffer(frame));
          this.mediaMs += FRAME_MS;
        }
      },
      Math.max(2, Math.min(10, frameWallMs)),
    );
  }

  private stop(): void {
    if (this.pump) clearInterval(this.pump);
    this.pump = undefined;
    if (this.ws && this.ws.readyState !== WebSocket.CLOSED) this.ws.terminate();
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.options.signal.aborted) throw new Error('the attempt ran out of time');
      await sleep(5);
    }
  }

  /** Waits for the agent to finish its turn (or for it to stay silent long enough), then notes what it said. */
  private async agentTurn(first: boolean): Promise<void> {
    const waitMs = first ? FIRST_TURN_WAIT_MS : REPLY_WAIT_MS;
    await this.until(() => {
      if (this.ended) return true;
      const spoke = this.lastStartMs >= this.lineEndMs && this.lastStartMs >= 0;
      if (!spoke) return this.mediaMs - this.lineEndMs >= waitMs;
      return !this.agentSpeaking && this.toolsRunning === 0 && this.mediaMs - this.lastEndMs >= TURN_GAP_MS;
    });
    // The transcript message of the turn's last line may trail its audio a little.
    const heard = this.heard.slice(this.heardMark);
    const shown = this.shown.slice(this.shownMark);
    const said = heard.length ? heard : shown;
    if (said.length) this.conversation.push({ role: 'agent', text: said.join(' ') });
    this.heardMark = this.heard.length;
    this.shownMark = this.shown.length;
  }

  private async say(text: string, pauseMs: number): Promise<void> {
    const speech = resamplePcm16(
      await synthesizeOfflineSpeech(text, { voice: 'slt' }),
      TELEPHONY_SAMPLE_RATE,
      BROWSER_SAMPLE_RATE,
    );
    const quietUntil = this.mediaMs + pauseMs;
    await this.until(() => this.ended || this.mediaMs >= quietUntil);
    if (this.ended) return;
    this.conversation.push({ role: 'caller', text });
    const frames: Int16Array[] = [];
    for (let at = 0; at < speech.length; at += FRAME_SAMPLES) {
      const frame = new Int16Array(FRAME_SAMPLES);
      frame.set(speech.subarray(at, Math.min(speech.length, at + FRAME_SAMPLES)));
      frames.push(frame);
    }
    this.pending.push(...frames);
    await this.until(() => this.ended || this.pending.length === 0);
    this.lineEndMs = this.mediaMs;
    this.awaitingReply = true;
    this.heardMark = this.heard.length;
    this.shownMark = this.shown.length;
  }

  /** The caller has nothing more to say: it ends the session as the web client does, and waits for the end. */
  private async hangUp(): Promise<void> {
    this.send({ type: 'end' });
    const deadline = Date.now() + END_WAIT_MS;
    await this.until(() => this.ended || Date.now() > deadline);
  }
}
