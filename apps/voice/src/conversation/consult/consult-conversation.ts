// A warm transfer's consult: the human's leg streams here (its context carries `consult`), and the agent speaks the
// briefing to the human only, asks whether to put the caller through and hears the answer. The caller never hears
// this stream, and the human never hears the caller's until the carrier bridges the legs.

import { endpointBoundsOf, type ConsultContext, type VoiceCallContext } from '@vap/messages';
import type { Clock } from '@vap/runtime';
import type { MediaStreamEvent } from '@vap/media';
import type { SttProvider, TtsProvider, TtsVoice } from '@vap/speech';
import { AgentSpeech } from '../agent-speech';
import { CallerInput, MAX_UTTERANCE_MS } from '../caller-input';
import type { ConversationResult, LiveConversation, MediaTransport } from '../conversation-contract';
import { MediaTime } from '../media-time';
import { ProviderChain } from '../provider-chain';

/** Asked after the briefing. */
export const CONSULT_QUESTION = 'Shall I put the caller through now? Please say yes or no.';
/** Asked again once when the answer was neither. */
export const CONSULT_ASK_AGAIN = 'Sorry, I did not catch that. Shall I put the caller through? Yes or no?';
/** Said to the human who accepted, before the carrier bridges the legs. */
export const CONSULT_CONNECTING = 'Thank you. Connecting you now.';
/** Said to the human who declined (or never answered), before their leg is hung up. */
export const CONSULT_DECLINED = 'No problem, I will let the caller know. Goodbye.';
/** Media ms the human has to answer the question (each time it is asked) before it counts as no. */
export const CONSULT_ANSWER_MS = 30_000;

const YES = /\b(yes|yeah|yep|sure|okay|ok|go ahead|put (?:them|him|her) through|connect)\b/i;
const NO = /\b(no|nope|not now|can'?t|cannot|busy|decline|later)\b/i;

/** The human's answer: the first yes or no word said, else null. */
export function consultAnswerOf(text: string): boolean | null {
  const yes = YES.exec(text);
  const no = NO.exec(text);
  if (yes && (!no || yes.index < no.index)) return true;
  if (no) return false;
  return null;
}

export interface ConsultOptions {
  context: VoiceCallContext & { consult: ConsultContext };
  voice: TtsVoice;
  stt: SttProvider[];
  tts: TtsProvider[];
  transport: MediaTransport;
  timeScale: number;
  clock?: Clock;
  providerTimeoutMs: number;
  /** Tells the calls service the human's answer (calls.voice.transfer_decision). */
  decide(accepted: boolean): Promise<unknown>;
  onError?(error: unknown, context: string): void;
}

/**
 * The consult stream's conversation: briefing and question once the stream starts, then the human's yes or no
 * (asked again once when unclear; silence counts as no). The decision goes to the calls service after the
 * human heard the agent's reply to it; the carrier then moves the human's leg into the conference (yes) or the
 * calls service hangs it up (no), which ends this stream. The stream ending first (the human hung up) decides
 * nothing here: the calls service learns it from the leg's own status.
 */
export class ConsultConversation implements LiveConversation {
  readonly done: Promise<ConversationResult>;
  private resolveDone!: (result: ConversationResult) => void;
  private time: MediaTime | null = null;
  private speech: AgentSpeech | null = null;
  private input: CallerInput | null = null;
  private decided = false;
  private asked = 0;
  private cancelWait: (() => void) | null = null;
  private settled = false;

  constructor(private readonly options: ConsultOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  onEvent(event: MediaStreamEvent): void {
    if (this.settled) return;
    switch (event.type) {
      case 'started':
        if (!this.time) this.start();
        return;
      case 'audio':
        this.input?.audio(event.payload);
        return;
      case 'played':
        this.speech?.onPlayed(event.mark);
        return;
      case 'stopped':
        void this.settle(null);
        return;
      default:
        return;
    }
  }

  onClosed(): void {
    void this.settle(null);
  }

  end(reason: string): boolean {
    return this.settle(reason);
  }

  terminate(): boolean {
    return this.settle(null);
  }

  answeredBy(): boolean {
    return false;
  }

  private start(): void {
    const { options } = this;
    const time = (this.time = new MediaTime(options.timeScale, options.clock));
    this.speech = new AgentSpeech({
      tts: new ProviderChain(options.tts),
      voice: options.voice,
      transport: options.transport,
      time,
      ambience: null,
      recorder: null,
      providerTimeoutMs: options.providerTimeoutMs,
      onLineDone: () => undefined,
    });
    this.input = new CallerInput({
      stt: new ProviderChain(options.stt),
      languages: [...options.context.agent.spokenLanguages],
      time,
      recorder: null,
      providerTimeoutMs: options.providerTimeoutMs,
      maxUtteranceMs: MAX_UTTERANCE_MS,
      endpointing: endpointBoundsOf(options.context.agent.turnTaking),
      onSpeechStart: () => undefined,
      onUtterance: (_utterance, text) => this.heard(text),
      onFailure: (failure) => {
        options.onError?.(failure, 'consult speech recognition');
        void this.decide(false);
      },
    });
    this.speech.start();
    void this.input.open();
    void this.ask(`${options.context.consult.briefing} ${CONSULT_QUESTION}`);
  }

  /** Says `text`, then gives the human CONSULT_ANSWER_MS to answer. */
  private async ask(text: string): Promise<void> {
    this.asked++;
    const asked = this.asked;
    await this.say(text);
    if (this.decided || this.settled || asked !== this.asked) return;
    this.cancelWait = this.time!.after(CONSULT_ANSWER_MS, () => void this.decide(false));
  }

  private heard(text: string): void {
    if (this.decided || this.settled || !text.trim()) return;
    const answer = consultAnswerOf(text);
    this.cancelWait?.();
    if (answer !== null) void this.decide(answer);
    else if (this.asked < 2) void this.ask(CONSULT_ASK_AGAIN);
    else void this.decide(false);
  }

  /** Answers the human, then tells the calls service; a failure to tell it is a decline the leg's end settles. */
  private async decide(accepted: boolean): Promise<void> {
    if (this.decided || this.settled) return;
    this.decided = true;
    this.cancelWait?.();
    if (this.input) this.input.listening = false;
    await this.say(accepted ? CONSULT_CONNECTING : CONSULT_DECLINED);
    try {
      await this.options.decide(accepted);
    } catch (error) {
      this.options.onError?.(error, 'transfer decision');
    }
  }

  private async say(text: string): Promise<void> {
    const speech = this.speech;
    if (!speech || this.settled) return;
    const line = speech.line();
    line.say(text).catch((error: unknown) => this.options.onError?.(error, 'consult speech'));
    line.end();
    await line.done;
  }

  private settle(reason: string | null): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.cancelWait?.();
    this.speech?.stop();
    const mediaSeconds = this.time ? this.time.now() / 1000 : 0;
    this.time?.stop();
    void (this.input?.close() ?? Promise.resolve()).finally(() =>
      this.resolveDone({ endCallReason: reason, mediaSeconds, recording: null }),
    );
    return true;
  }
}
