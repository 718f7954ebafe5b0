import { Counter, Gauge, Histogram } from 'prom-client';
import type { TurnLatency } from '@vap/messages';
import type { PacingObserver } from '@vap/media';
import { speechEvents } from '@vap/speech';
import type { TurnLatencySink, TurnTakingEvent, TurnTakingSink } from '../conversation';

/** Media streams this replica is serving now; the HPA scales the voice Deployment on it. */
export const liveSessionsGauge = new Gauge({
  name: 'voice_live_sessions',
  help: 'Media streams (live conversations) on this replica',
});

/** Upgrades refused before any audio, by why (bad_token, expired_token, replayed, draining, ...). */
export const refusedUpgrades = new Counter({
  name: 'voice_refused_upgrades_total',
  help: 'Media-stream upgrades refused before any audio, by reason',
  labelNames: ['reason'],
});

/** Sessions that ended, by how (the conversation ended, the pipeline could not start, the report failed). */
export const endedSessions = new Counter({
  name: 'voice_sessions_ended_total',
  help: 'Media sessions that ended, by outcome',
  labelNames: ['outcome'],
});

export const TURN_LATENCY_PARTS = [
  'endpointing',
  'stt_final',
  'llm_first_token',
  'tts_first_byte',
  'first_frame_out',
  'voice_to_voice',
] as const;
export type TurnLatencyPart = (typeof TURN_LATENCY_PARTS)[number];

/** Each agent turn's latency parts, in seconds from the end of the caller's speech. */
export const turnLatency = new Histogram({
  name: 'voice_turn_latency_seconds',
  help: "Latency of an agent turn's parts, from the end of the caller's speech",
  labelNames: ['part'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
});

const MS_FIELD: Readonly<Record<TurnLatencyPart, keyof TurnLatency>> = {
  endpointing: 'endpointing_ms',
  stt_final: 'stt_final_ms',
  llm_first_token: 'llm_first_token_ms',
  tts_first_byte: 'tts_first_byte_ms',
  first_frame_out: 'first_frame_out_ms',
  voice_to_voice: 'voice_to_voice_ms',
};

/** The sink every conversation reports its turns to. */
export const turnLatencySink: TurnLatencySink = {
  observe(latency: TurnLatency): void {
    for (const part of TURN_LATENCY_PARTS) {
      const ms = latency[MS_FIELD[part]];
      if (Number.isFinite(ms) && ms >= 0) turnLatency.observe({ part }, ms / 1000);
    }
  },
};

/** Reconnect attempts of live STT streams the provider's server dropped mid-call, by whether they opened. */
export const sttReconnects = new Counter({
  name: 'voice_stt_reconnects_total',
  help: 'Reconnect attempts of live STT streams dropped mid-call, by provider and outcome (ok, failed)',
  labelNames: ['provider', 'outcome'],
});
speechEvents.on('stt_reconnect', (labels) => sttReconnects.inc(labels));

/** Providers that failed mid-call and handed the call over to the next one listed for their kind. */
export const providerFallbacks = new Counter({
  name: 'voice_provider_fallbacks_total',
  help: 'Mid-call handovers from a failing provider to the next of its kind, by kind (stt, tts, llm) and provider taking over',
  labelNames: ['kind', 'to'],
});

/**
 * Outbound pacing as the replica sends: how far from its 20 ms slot each frame left (the clock's own error,
 * before the network), and ticks that found a sentence's audio not ready (a gap the caller hears).
 */
export const frameSendLateness = new Histogram({
  name: 'voice_frame_send_lateness_seconds',
  help: "How late each outbound media frame left for the carrier, against its slot on the call's 20 ms clock",
  buckets: [0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.02, 0.04, 0.08],
});

export const frameUnderruns = new Counter({
  name: 'voice_frame_underruns_total',
  help: "Outbound ticks with nothing to send while the agent's sentence was still playing",
});

/** The observer every conversation's pacing clock reports to. */
export const pacingMetrics: PacingObserver = {
  // An early send (a timer's sub-millisecond rounding) counts as on time.
  sent: (latenessMs) => frameSendLateness.observe(Math.max(0, latenessMs) / 1000),
  underrun: () => frameUnderruns.inc(),
};

/** Caller audio a stream sent beyond real time plus MEDIA_AUDIO_BURST_MS, dropped unheard. */
export const inboundAudioDropped = new Counter({
  name: 'voice_inbound_audio_dropped_seconds_total',
  help: 'Seconds of caller audio dropped because a media stream sent it faster than real time plus the burst allowance',
});

/** Carrier messages of event types the platform does not know, ignored (a newer protocol, not a fault). */
export const ignoredStreamMessages = new Counter({
  name: 'voice_media_messages_ignored_total',
  help: 'Media-stream messages of unknown event types, ignored, by protocol',
  labelNames: ['protocol'],
});

/** Streams the replica closed for breaking a bound, by the end_call_reason their call got. */
export const cutStreams = new Counter({
  name: 'voice_media_streams_cut_total',
  help: 'Media streams closed by the replica for breaking a per-stream bound, by end_call_reason',
  labelNames: ['reason'],
});

/** Turn-taking decisions: barge-ins, backchannels talked through, holds and their recoveries, early replies. */
export const turnTakingEvents = new Counter({
  name: 'voice_turn_taking_events_total',
  help: 'Turn-taking decisions on this replica, by event',
  labelNames: ['event'],
});

/** The sink every conversation reports its turn-taking decisions to. */
export const turnTakingSink: TurnTakingSink = {
  observe(event: TurnTakingEvent): void {
    turnTakingEvents.inc({ event });
  },
};
