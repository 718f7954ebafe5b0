// Test kit for the realtime driver's specs: a call on a speech-to-speech model through the real session clients
// and the fake providers. A fake carrier streams the caller's words as the offline engine speaks them (mu-law,
// paced on the media clock), echoes each mark once its audio played, and reads the agent's words back from the
// audio it was sent (the offline engine's text signal, which the fakes' replies carry).

import type { AgentSnapshot } from '@vap/messages';
import {
  FRAME_MS,
  mulawDecode,
  mulawEncode,
  synthesizeOfflineSpeech,
  TextSignalDecoder,
  type MediaStreamCommand,
  type MediaStreamNotice,
} from '@vap/media';
import type { BlobWriter } from '@vap/storage';
import type { ConversationResult, LiveConversation } from '../../conversation-contract';
import type { AgentModel } from '../../model-round';
import { agentSettings, FakePlatform, FakeTts, TEST_VOICE } from '../../testing/conversation-harness';
import { createRealtimeConversation } from '../realtime-conversation';
import type { RealtimeModel } from '../realtime-model';
import { realtimeModelOf } from '../realtime-model';

const MULAW_SILENCE = 0xff;

/** A speech-to-speech model of a plan, on a fake's base URL and key. */
export function realtimeModel(
  provider: 'openai' | 'google',
  model: string,
  target: { baseUrl: string; apiKey: string },
  settings: { voice?: string; temperature?: number; maxTokens?: number } = {},
): RealtimeModel {
  const made = realtimeModelOf({
    provider,
    model,
    speechToSpeech: true,
    ...settings,
    credential: { provider, apiKey: target.apiKey, baseUrl: target.baseUrl, paidBy: 'account' },
  });
  if (typeof made === 'string') throw new Error(made);
  return made;
}

export interface RealtimeCallOptions {
  models: RealtimeModel[];
  agent?: Partial<AgentSnapshot>;
  variables?: Record<string, unknown>;
  timeScale?: number;
  providerTimeoutMs?: number;
  textModels?: AgentModel[];
  modelsFor?: (agent: AgentSnapshot) => Promise<readonly AgentModel[]>;
  openRecording?: () => BlobWriter;
}

export class RealtimeCall {
  readonly platform = new FakePlatform();
  readonly tts = new FakeTts();
  readonly sent: MediaStreamCommand[] = [];
  readonly notices: MediaStreamNotice[] = [];
  /** The agent's words read back from the audio it sent, in order. */
  readonly heard: string[] = [];
  readonly fallbacks: { failure: string; next: string }[] = [];
  readonly errors: string[] = [];
  result: ConversationResult | null = null;
  private readonly decoder = new TextSignalDecoder(8000);
  private readonly queue: Buffer[] = [];
  private feeder: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private framesSent = 0;

  /** The call's conversation, once its session opened. */
  conversation!: LiveConversation;

  private constructor(readonly timeScale: number) {}

  /** Opens the call's session and starts the stream; rejects as createRealtimeConversation does. */
  static async start(options: RealtimeCallOptions): Promise<RealtimeCall> {
    const call = new RealtimeCall(options.timeScale ?? 4);
    call.conversation = await createRealtimeConversation({
      context: {
        callId: 'call-1',
        partnerId: 'partner-1',
        agentId: 'agent-1',
        sessionId: 'session-1',
        direction: 'outbound',
        fromNumber: '+15550001111',
        toNumber: '+15550002222',
        provider: 'carrier_b',
        variables: options.variables ?? { company: 'Acme' },
        answeredBy: 'human',
        agent: agentSettings(options.agent),
      },
      voice: TEST_VOICE,
      tts: [call.tts],
      models: options.models,
      ...(options.textModels ? { textModels: options.textModels } : {}),
      ...(options.modelsFor ? { modelsFor: options.modelsFor } : {}),
      platform: call.platform,
      transport: {
        send: (command) => call.sentCommand(command),
        notify: (notice) => call.notices.push(notice),
      },
      timeScale: call.timeScale,
      providerTimeoutMs: options.providerTimeoutMs ?? 3000,
      onProviderFallback: (failure, next) => call.fallbacks.push({ failure: failure.message, next }),
      onError: (error, context) =>
        call.errors.push(`${context}: ${error instanceof Error ? error.message : String(error)}`),
      ...(options.openRecording ? { openRecording: options.openRecording } : {}),
    });
    void call.conversation.done.then((result) => {
      call.result = result;
      call.halt();
    });
    call.conversation.onEvent({ type: 'started', callId: 'CA1', streamId: 'MZ1', params: {} });
    call.startedAt = performance.now();
    call.feeder = setInterval(() => call.feed(), 2);
    return call;
  }

  /** The caller says `text` (the offline engine's speech) after what is queued; resolves once it was sent. */
  async say(text: string): Promise<void> {
    const mulaw = mulawEncode(await synthesizeOfflineSpeech(text));
    for (let at = 0; at < mulaw.length; at += 160) {
      const frame = Buffer.alloc(160, MULAW_SILENCE);
      mulaw.copy(frame, 0, at, Math.min(mulaw.length, at + 160));
      this.queue.push(frame);
    }
    await this.until(() => this.queue.length === 0, `the caller to say ${text}`, 20_000);
  }

  /** Waits (wall time) until `predicate` holds. */
  async until(predicate: () => boolean, what: string | (() => string), timeoutMs = 10_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!predicate()) {
      if (performance.now() > deadline)
        throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Waits until the agent was heard saying `text`. */
  untilHeard(text: string, timeoutMs = 10_000): Promise<void> {
    return this.until(
      () => this.heard.includes(text),
      () => `the agent to say ${JSON.stringify(text)} (heard ${JSON.stringify(this.heard)})`,
      timeoutMs,
    );
  }

  commands(type: MediaStreamCommand['type']): MediaStreamCommand[] {
    return this.sent.filter((c) => c.type === type);
  }

  /** Media ms since the stream started. */
  get mediaNow(): number {
    return (performance.now() - this.startedAt) * this.timeScale;
  }

  hangUp(): void {
    this.halt();
    this.conversation.onEvent({ type: 'stopped' });
  }

  async done(timeoutMs = 10_000): Promise<ConversationResult> {
    await this.until(() => this.result !== null, 'the conversation to end', timeoutMs);
    return this.result!;
  }

  async close(): Promise<void> {
    if (!this.result) {
      this.hangUp();
      await this.done().catch(() => undefined);
    }
    this.halt();
  }

  private sentCommand(command: MediaStreamCommand): void {
    this.sent.push(command);
    if (command.type === 'sendAudio') {
      for (const text of this.decoder.push(mulawDecode(command.payload))) this.heard.push(text);
    } else if (command.type === 'clear') {
      this.decoder.reset();
    } else if (command.type === 'mark') {
      // The frames are paced: when a mark arrives everything before it has gone out; it plays a frame later.
      const timer = setTimeout(
        () => this.conversation.onEvent({ type: 'played', mark: command.name }),
        FRAME_MS / this.timeScale,
      );
      timer.unref?.();
    }
  }

  /** The caller's frames due on the media clock: speech while some is queued, silence otherwise. */
  private feed(): void {
    const due = Math.floor(this.mediaNow / FRAME_MS);
    while (this.framesSent < due) {
      this.framesSent++;
      this.conversation.onEvent({
        type: 'audio',
        payload: this.queue.shift() ?? Buffer.alloc(160, MULAW_SILENCE),
      });
    }
  }

  private halt(): void {
    if (this.feeder) clearInterval(this.feeder);
    this.feeder = null;
  }
}
