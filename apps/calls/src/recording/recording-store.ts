import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORAGE, BlobStorage } from '@vap/storage';
import { CallsConfig } from '../config/calls.config';

/** Recordings are kept for as long as the call; signed download URLs are valid 7 days (the contract). */
export const RECORDING_URL_TTL_SECONDS = 7 * 24 * 60 * 60;

/** The largest carrier recording kept (two hours of 16-bit 8 kHz audio is about 115 MB). */
const MAX_RECORDING_BYTES = 200 * 1024 * 1024;

export function recordingKey(partnerId: string, callId: string): string {
  return `recordings/${partnerId}/${callId}.wav`;
}

@Injectable()
export class RecordingStore {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    private readonly config: CallsConfig,
  ) {}

  /** Stores a recording a carrier delivered, keeping its format (WAV or MP3). */
  async saveCarrierRecording(
    partnerId: string,
    callId: string,
    body: Buffer,
    contentType: string,
  ): Promise<string> {
    const type = contentType.split(';')[0].trim().toLowerCase();
    const ext = type === 'audio/mpeg' || type === 'audio/mp3' ? 'mp3' : 'wav';
    const key = `recordings/${partnerId}/${callId}.${ext}`;
    await this.storage.put(key, body, {
      contentType: ext === 'mp3' ? 'audio/mpeg' : 'audio/wav',
      maxBytes: MAX_RECORDING_BYTES,
    });
    return key;
  }

  async save(partnerId: string, callId: string, wav: Buffer): Promise<string> {
    const key = recordingKey(partnerId, callId);
    await this.storage.put(key, wav, { contentType: 'audio/wav' });
    return key;
  }

  /**
   * A fresh signed URL of a stored recording. The local driver's URLs are relative to the gateway that
   * serves them; they are made absolute on the gateway's public base, so events carry usable URLs too.
   */
  async signedUrl(key: string, callId: string): Promise<{ url: string; expiresAt: Date }> {
    const signed = await this.storage.presignDownload(key, {
      expiresInSeconds: RECORDING_URL_TTL_SECONDS,
      fileName: `call-${callId}.wav`,
    });
    const url = signed.url.startsWith('/') ? `${this.config.publicBaseUrl}${signed.url}` : signed.url;
    return { url, expiresAt: signed.expiresAt };
  }
}
