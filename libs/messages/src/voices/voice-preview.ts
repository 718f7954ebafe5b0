/** agents.voice.preview: which catalog voice to hear ({ id }: the voice's UUID). */
export interface VoicePreviewRequest {
  id: string;
}

/**
 * How a preview was spoken: by the voice's provider (a local voice's is eSpeak NG), by local speech (eSpeak NG,
 * in the voice's language) standing in for a provider with no key, or by the offline engine (its own voices, or
 * standing in where eSpeak NG is not installed).
 */
export type VoicePreviewEngine = 'provider' | 'local' | 'offline';

/** The voice saying its preview text: a PCM16 mono WAV, base64 over NATS (bounded: VOICE_PREVIEW_MAX_SECONDS). */
export interface VoicePreview {
  wavBase64: string;
  engine: VoicePreviewEngine;
  sampleRate: number;
  /** The catalog row version the audio was made from (the voice's updated_at), for HTTP caching. */
  version: string;
}

/** A preview is cut at this length, so its WAV stays well under a NATS message (8 kHz: 480 kB at most). */
export const VOICE_PREVIEW_MAX_SECONDS = 30;
