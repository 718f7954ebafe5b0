// The media side of a live call, opened when the stream starts: the media clock, the recording, the agent's
// voice, the caller's speech and keys.

import {
  DtmfSnapshotDefaults,
  endpointBoundsOf,
  type AgentSnapshot,
  type TurnTakingSnapshot,
} from '@vap/messages';
import type { AmbienceLoop } from '@vap/media';
import type { SttProvider, TtsProvider } from '@vap/speech';
import { AgentSpeech, type AgentSpeechOptions } from './agent-speech';
import { CallRecorder } from './call-recorder';
import { CallerInput, MAX_UTTERANCE_MS, type CallerInputOptions } from './caller-input';
import type { ConversationOptions } from './conversation-contract';
import { CallerKeypad, type CallerKeypadOptions } from './dtmf/caller-keypad';
import { MediaTime } from './media-time';
import type { ProviderChain } from './provider-chain';
import type { ProviderFailure } from './provider-failure';

export interface CallMedia {
  readonly time: MediaTime;
  readonly recorder: CallRecorder | null;
  readonly speech: AgentSpeech;
  readonly input: CallerInput;
  readonly keypad: CallerKeypad;
}

export interface CallMediaOptions {
  conversation: ConversationOptions;
  agent: AgentSnapshot;
  turnTaking: TurnTakingSnapshot;
  stt: ProviderChain<SttProvider>;
  tts: ProviderChain<TtsProvider>;
  ambience: AmbienceLoop | null;
  providerTimeoutMs: number;
  /** What the agent's lines tell the conversation. */
  lines: Pick<AgentSpeechOptions, 'onLineDone' | 'onLineStarted'>;
  /** What the caller's speech tells the conversation. */
  caller: Pick<
    CallerInputOptions,
    'onSpeechStart' | 'onPartial' | 'onPause' | 'onResume' | 'onUtterance' | 'onFailure'
  >;
  /** What the caller's keys tell the conversation. */
  keys: Pick<CallerKeypadOptions, 'onKey' | 'onEntry'>;
}

/** Opens the call's media; the caller starts the agent's voice and the caller's transcription once it holds them. */
export function openCallMedia(options: CallMediaOptions): CallMedia {
  const { conversation, agent } = options;
  const time = new MediaTime(conversation.timeScale, conversation.clock);
  const recorder = agent.enableRecording ? openRecorder(conversation) : null;
  const onFallback = (failure: ProviderFailure, next: string) =>
    conversation.onProviderFallback?.(failure, next);
  const speech = new AgentSpeech({
    tts: options.tts,
    voice: conversation.voice,
    transport: conversation.transport,
    time,
    ambience: options.ambience,
    recorder,
    providerTimeoutMs: options.providerTimeoutMs,
    pacingClock: conversation.pacingClock,
    pacingObserver: conversation.pacing,
    ...options.lines,
    onFallback,
  });
  const input = new CallerInput({
    stt: options.stt,
    languages: [...agent.spokenLanguages],
    time,
    recorder,
    providerTimeoutMs: options.providerTimeoutMs,
    maxUtteranceMs: conversation.maxUtteranceMs ?? MAX_UTTERANCE_MS,
    endpointing: endpointBoundsOf(options.turnTaking),
    ...options.caller,
    onFallback,
  });
  // Calls started before agents had the setting carry none: keys are ignored then.
  const keypad = new CallerKeypad({
    config: agent.dtmf ?? DtmfSnapshotDefaults,
    clock: time,
    ...options.keys,
  });
  return { time, recorder, speech, input, keypad };
}

function openRecorder(options: ConversationOptions): CallRecorder | null {
  const { openRecording, onRecordingLost } = options;
  if (!openRecording) return null;
  try {
    return new CallRecorder(openRecording(), onRecordingLost);
  } catch (error) {
    onRecordingLost?.(error as Error);
    return null;
  }
}
