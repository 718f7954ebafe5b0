// The calls a benchmark round places: each has a context the fake calls service answers on attach (an agent
// with every conversation feature that costs extra off: no background audio, no recording, no tools) and a
// stream URL with a fresh signed token, as the calls service would put in the carrier's answer markup.
import { randomUUID } from 'node:crypto';
import { AgentSnapshot, SpeechPlan, TtsPlanEntry, VoiceCallContext } from '@vap/messages';
import { buildBrowserStreamUrl, buildMediaStreamUrl, issueStreamToken } from '@vap/media';

/** A voice of the seeded catalog (the same one the other benchmarks' agents use). */
export const BENCH_VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';

/**
 * That voice as the agents service puts it in a call's speech plan: OpenAI-compatible, with no key of the
 * account's, so the deployment's own TTS (the fake OpenAI-compatible server) speaks it. The voice service puts its
 * provider voice id, model, speed, volume and language into every synthesis request.
 */
export const BENCH_VOICE_PLAN_ENTRY: TtsPlanEntry = {
  provider: 'openai',
  voiceId: BENCH_VOICE_ID,
  providerVoiceId: 'alloy',
  model: 'tts-1',
  speed: 1,
  volume: 1,
  language: 'en-IN',
};

/**
 * The speech plan of every benchmark call: the agent's voice on the deployment's TTS, no transcriber of the
 * agent's (the deployment's STT serves), no dictionaries.
 */
export function benchSpeechPlan(): SpeechPlan {
  return { tts: [{ ...BENCH_VOICE_PLAN_ENTRY }], stt: [], keyterms: [], pronunciations: [] };
}

/** Stream tokens outlive the ramp of the largest round by far; expiry is not what is measured. */
const STREAM_TOKEN_TTL_MS = 120_000;

export function benchAgentSettings(introMessage: string | null): AgentSnapshot {
  return {
    version: 3,
    prompt: 'You are a benchmark agent. Answer every caller in one short sentence.',
    voiceId: BENCH_VOICE_ID,
    spokenLanguages: ['en'],
    introMessage: introMessage,
    enableRecording: false,
    maxCallDurationSecs: null,
    endCallEnabled: false,
    endCallMessage: null,
    endCallInstructions: null,
    transferEnabled: false,
    transferNumber: null,
    transferMessage: null,
    transferInstructions: null,
    voicemailDetectionEnabled: false,
    voicemailMessage: null,
    userIdleEnabled: false,
    toolAckConfig: null,
    backgroundAudioId: null,
    backgroundAudioVolume: 0,
    kbThreshold: null,
    kbIncludeSummaries: false,
    kbResultFormat: null,
    hasKnowledge: false,
    extractionEnabled: false,
  };
}

/** How a benchmark call reaches the voice service: a carrier_b phone call or a browser session. */
export type BenchTransport = 'phone' | 'browser';

/** The page a browser session's client runs on (the fake calls service allows any origin). */
export const BENCH_BROWSER_ORIGIN = 'https://bench.example';

export interface BenchCall {
  context: VoiceCallContext;
  transport: BenchTransport;
  /**
   * `ws://<MEDIA_PUBLIC_URL host>/media/carrier_b/<callId>?token=...`, or for a browser session
   * `ws://<host>/browser/<sessionId>?token=...` (the session id is the call id, as for the calls service).
   */
  streamUrl: string;
}

/**
 * Which transport the index-th call of a round uses: every call the one asked for, or with `mixed` every other
 * call a browser session (half and half, interleaved so both share the ramp alike).
 */
export function transportOf(index: number, mode: BenchTransport | 'mixed'): BenchTransport {
  if (mode !== 'mixed') return mode;
  return index % 2 === 0 ? 'phone' : 'browser';
}

/**
 * The index-th call of a round: an outbound carrier_b call answered by a person, or (transport `browser`) a
 * browser session with the same agent.
 */
export function benchCall(
  index: number,
  agent: AgentSnapshot,
  publicUrl: string,
  tokenKey: Buffer,
  transport: BenchTransport = 'phone',
): BenchCall {
  const callId = randomUUID();
  const context: VoiceCallContext = {
    callId,
    partnerId: '00000000-0000-4000-8000-00000000be4c',
    agentId: '00000000-0000-4000-8000-0000000a6e47',
    sessionId: randomUUID(),
    direction: 'outbound',
    fromNumber: '+918000000001',
    toNumber: `+91987${String(index).padStart(7, '0')}`,
    provider: transport === 'browser' ? 'browser' : 'carrier_b',
    variables: {},
    answeredBy: 'human',
    agent,
  };
  const token = issueStreamToken({ callId, ttlMs: STREAM_TOKEN_TTL_MS, now: Date.now() }, tokenKey);
  const streamUrl =
    transport === 'browser'
      ? buildBrowserStreamUrl({ publicUrl, sessionId: callId, token })
      : buildMediaStreamUrl({ publicUrl, carrier: 'carrier_b', callId, token });
  return { context, transport, streamUrl };
}
