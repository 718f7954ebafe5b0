// One turn of the agent's: the reply to a caller's turn (or a round it takes by itself), with what its latency
// and its providers are measured from.

import type { TurnLatency, TurnProviders } from '@vap/messages';
import type { ModelIdentity } from './model-round';
import type { SpokenLine } from './agent-speech';
import type { ProviderFailure } from './provider-failure';
import type { EarlyReply } from './turn-taking/early-reply';

export interface Turn {
  readonly controller: AbortController;
  /** Media ms the caller's speech ended (latency parts count from here). */
  readonly speechEndMs: number;
  /** Media ms the endpointer judged the caller's turn over. */
  readonly endpointAtMs: number;
  /** The first model round, started before the endpoint. */
  readonly early: EarlyReply | null;
  readonly sttFinalAtMs: number;
  /** The STT provider that transcribed the caller's words (a speech-to-speech model's provider: it heard them). */
  readonly stt: TurnProviders['stt'];
  /** The model that wrote the reply's latest round. */
  llm: ModelIdentity | null;
  llmFirstTokenAtMs: number | null;
  /** A TTS failure seen while the model was still streaming. */
  failure: ProviderFailure | null;
  /** Transfer or end call under way: the caller can no longer interrupt it. */
  committed: boolean;
  /** Partner functions called in this turn (CUSTOM_FUNCTION_CALLS_PER_TURN). */
  customCalls: number;
  /** A round the agent takes by itself (an async function's answer came): no caller turn, no latency. */
  unprompted?: boolean;
}

/** A new turn: the caller's (timed from their speech), or the agent's own (`unprompted`, timed from now). */
export function newTurn(
  at: Pick<Turn, 'speechEndMs' | 'endpointAtMs' | 'sttFinalAtMs' | 'stt'>,
  options: { early?: EarlyReply | null; unprompted?: boolean } = {},
): Turn {
  const early = options.early ?? null;
  return {
    controller: early?.controller ?? new AbortController(),
    ...at,
    early,
    llm: null,
    llmFirstTokenAtMs: null,
    failure: null,
    committed: false,
    customCalls: 0,
    ...(options.unprompted ? { unprompted: true } : {}),
  };
}

/** Who served a turn: after a fallback within it, the provider that took over (else the chain's current one). */
export function providersOf(
  turn: Turn,
  line: SpokenLine,
  current: { llm: ModelIdentity | null; tts: TurnProviders['tts'] },
): TurnProviders {
  const model = turn.llm ?? current.llm;
  return {
    stt: turn.stt,
    llm: model?.provider ?? null,
    llm_model: model?.model ?? null,
    tts: line.ttsProvider ?? current.tts,
  };
}

/** The latency parts of a reply whose first frame went out at `firstFrameAtMs`, counted from the caller's speech. */
export function latencyOf(turn: Turn, line: SpokenLine, firstFrameAtMs: number): TurnLatency {
  const since = (atMs: number | null) => Math.max(0, Math.round((atMs ?? firstFrameAtMs) - turn.speechEndMs));
  const firstFrame = since(firstFrameAtMs);
  return {
    endpointing_ms: since(turn.endpointAtMs),
    stt_final_ms: since(turn.sttFinalAtMs),
    llm_first_token_ms: since(turn.llmFirstTokenAtMs),
    tts_first_byte_ms: since(line.ttsFirstByteAtMs),
    first_frame_out_ms: firstFrame,
    // The clock keeps at most a frame ahead of playback, so the caller hears the first frame as it is sent.
    voice_to_voice_ms: firstFrame,
  };
}
