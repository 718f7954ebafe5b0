import type { VoiceCallContext } from '@vap/messages';
import type { BlobStorage, BlobWriter } from '@vap/storage';
import { WAV_HEADER_BYTES } from '../conversation/call-recorder';

/**
 * Where a call's recording lives: the calls service's key scheme (apps/calls recording-store), so it signs
 * download URLs for what the media plane wrote.
 */
export function recordingKey(partnerId: string, callId: string): string {
  return `recordings/${partnerId}/${callId}.wav`;
}

/** Two hours of two-channel 16-bit 8 kHz audio is about 230 MB; anything larger is not a call recording. */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/** The writer a recording call streams its WAV into, at the calls service's key. */
export function openRecording(storage: BlobStorage, context: VoiceCallContext): BlobWriter {
  return storage.openWriter(recordingKey(context.partnerId, context.callId), {
    contentType: 'audio/wav',
    maxBytes: MAX_RECORDING_BYTES,
    headerBytes: WAV_HEADER_BYTES,
  });
}
