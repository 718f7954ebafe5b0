// Per-carrier translation between wire messages and the neutral MediaStreamEvent / MediaStreamCommand.
import {
  CarrierAInbound,
  CarrierAOutbound,
  carrierACheckpoint,
  carrierAClearAudio,
  carrierAPlayAudio,
  carrierAPlayAudioTemplate,
  parseCarrierAExtraHeaders,
  parseCarrierAMessage,
} from './carrier-a-stream';
import {
  CarrierBInbound,
  CarrierBOutbound,
  carrierBClear,
  carrierBMark,
  carrierBMedia,
  carrierBMediaTemplate,
  parseCarrierBMessage,
} from './carrier-b-stream';
import { createBrowserStreamCodec } from './browser-stream';
import { dtmfKeyOf } from '../audio/dtmf';
import { MULAW_BYTES_PER_MS } from './media-clock-budget';
import { MediaFrameScanner, mediaFrameScanner, scanMediaFrame } from './media-frame-scanner';
import { AudioMessageTemplate, AudioMessageWriter } from './media-frame-writer';
import { MediaStreamCommand, MediaStreamEvent } from './media-stream-event';
import type { CarrierStreamProtocol, MediaStreamCodec, MediaStreamProtocol } from './media-stream-codec';
import { StreamParseResult } from './stream-message-fields';

export interface MediaStreamAdapter<Inbound, Outbound> {
  readonly protocol: CarrierStreamProtocol;
  parse(text: string): StreamParseResult<Inbound>;
  /** null for messages the pipeline has no use for (handshake, other tracks). */
  toNeutral(message: Inbound): MediaStreamEvent | null;
  /** `streamId` is the one the `started` event carried. */
  fromNeutral(command: MediaStreamCommand, streamId: string): Outbound;
  /** Reads the carrier's media frames from their bytes (see scanMediaFrame). */
  readonly mediaFrames: MediaFrameScanner;
  /** The JSON of fromNeutral's sendAudio message around its payload (see AudioMessageWriter). */
  audioTemplate(streamId: string): AudioMessageTemplate;
}

// Only the caller's side feeds the pipeline; the platform's own playback must never be heard as speech.
const CALLER_TRACK = 'inbound';

/**
 * A key press, when the digit is a keypad key. Anything else (a carrier's new key, garbage) is dropped rather than
 * cutting a live call over it.
 */
export function dtmfEvent(digit: string): MediaStreamEvent | null {
  const key = dtmfKeyOf(digit);
  return key === null ? null : { type: 'dtmf', digit: key };
}

export const carrierBStreamAdapter: MediaStreamAdapter<CarrierBInbound, CarrierBOutbound> = {
  protocol: 'carrier_b',
  parse: parseCarrierBMessage,
  mediaFrames: mediaFrameScanner({ streamIdKey: 'streamSid', callerTrack: CALLER_TRACK }),
  audioTemplate: carrierBMediaTemplate,
  toNeutral(message) {
    switch (message.event) {
      case 'connected':
        return null;
      case 'start':
        return {
          type: 'started',
          callId: message.start.callSid,
          streamId: message.start.streamSid,
          params: message.start.customParameters,
        };
      case 'media':
        return message.media.track === CALLER_TRACK
          ? {
              type: 'audio',
              payload: Buffer.from(message.media.payload, 'base64'),
              timestamp: message.media.timestamp,
            }
          : null;
      case 'mark':
        return { type: 'played', mark: message.mark.name };
      case 'dtmf':
        return dtmfEvent(message.dtmf.digit);
      case 'stop':
        return { type: 'stopped' };
    }
  },
  fromNeutral(command, streamId) {
    switch (command.type) {
      case 'sendAudio':
        return carrierBMedia(streamId, command.payload);
      case 'mark':
        return carrierBMark(streamId, command.name);
      case 'clear':
        return carrierBClear(streamId);
    }
  },
};

export const carrierAStreamAdapter: MediaStreamAdapter<CarrierAInbound, CarrierAOutbound> = {
  protocol: 'carrier_a',
  parse: parseCarrierAMessage,
  mediaFrames: mediaFrameScanner({ streamIdKey: 'streamId', callerTrack: CALLER_TRACK }),
  audioTemplate: () => carrierAPlayAudioTemplate(),
  toNeutral(message) {
    switch (message.event) {
      case 'start':
        return {
          type: 'started',
          callId: message.start.callId,
          streamId: message.start.streamId,
          params: parseCarrierAExtraHeaders(message.extra_headers),
        };
      case 'media':
        return message.media.track === CALLER_TRACK
          ? {
              type: 'audio',
              payload: Buffer.from(message.media.payload, 'base64'),
              timestamp: message.media.timestamp,
            }
          : null;
      case 'playedStream':
        return { type: 'played', mark: message.name };
      case 'clearedAudio':
        return { type: 'cleared' };
      case 'dtmf':
        return dtmfEvent(message.dtmf.digit);
      case 'stop':
        return { type: 'stopped' };
    }
  },
  fromNeutral(command, streamId) {
    switch (command.type) {
      case 'sendAudio':
        return carrierAPlayAudio(command.payload);
      case 'mark':
        return carrierACheckpoint(streamId, command.name);
      case 'clear':
        return carrierAClearAudio(streamId);
    }
  },
};

/** A codec for one stream (a browser's keeps state: make one per stream). */
export function mediaStreamCodec(protocol: MediaStreamProtocol): MediaStreamCodec {
  switch (protocol) {
    case 'carrier_a':
      return codecOf(carrierAStreamAdapter);
    case 'carrier_b':
      return codecOf(carrierBStreamAdapter);
    case 'browser':
      return createBrowserStreamCodec();
  }
}

function codecOf<Inbound, Outbound>(adapter: MediaStreamAdapter<Inbound, Outbound>): MediaStreamCodec {
  const decode = (text: string): StreamParseResult<MediaStreamEvent | null> => {
    const parsed = adapter.parse(text);
    return parsed.ok ? { ok: true, message: adapter.toNeutral(parsed.message) } : parsed;
  };
  const audio = new AudioMessageWriter((streamId) => adapter.audioTemplate(streamId));
  return {
    protocol: adapter.protocol,
    audioBytesPerMs: MULAW_BYTES_PER_MS,
    startsOnAdmission: false,
    decode,
    decodeText(bytes) {
      const media = scanMediaFrame(bytes, adapter.mediaFrames);
      return media === undefined ? decode(bytes.toString('utf8')) : { ok: true, message: media };
    },
    encode: (command, streamId) => JSON.stringify(adapter.fromNeutral(command, streamId)),
    encodeAudioText: (payload, streamId) => audio.write(payload, streamId),
  };
}
