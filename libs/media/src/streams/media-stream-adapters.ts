// Per-carrier translation between wire messages and the neutral MediaStreamEvent / MediaStreamCommand.
import {
  CarrierAInbound,
  CarrierAOutbound,
  carrierACheckpoint,
  carrierAClearAudio,
  carrierAPlayAudio,
  parseCarrierAExtraHeaders,
  parseCarrierAMessage,
} from './carrier-a-stream';
import {
  CarrierBInbound,
  CarrierBOutbound,
  carrierBClear,
  carrierBMark,
  carrierBMedia,
  parseCarrierBMessage,
} from './carrier-b-stream';
import { MediaStreamCommand, MediaStreamEvent } from './media-stream-event';
import { StreamParseResult } from './stream-message-fields';

/** The two wire protocols; other carriers (the sandbox) speak one of them. */
export type MediaStreamProtocol = 'carrier_a' | 'carrier_b';

export interface MediaStreamAdapter<Inbound, Outbound> {
  readonly protocol: MediaStreamProtocol;
  parse(text: string): StreamParseResult<Inbound>;
  /** null for messages the pipeline has no use for (handshake, other tracks). */
  toNeutral(message: Inbound): MediaStreamEvent | null;
  /** `streamId` is the one the `started` event carried. */
  fromNeutral(command: MediaStreamCommand, streamId: string): Outbound;
}

// Only the caller's side feeds the pipeline; the platform's own playback must never be heard as speech.
const CALLER_TRACK = 'inbound';

export const carrierBStreamAdapter: MediaStreamAdapter<CarrierBInbound, CarrierBOutbound> = {
  protocol: 'carrier_b',
  parse: parseCarrierBMessage,
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
        return { type: 'dtmf', digit: message.dtmf.digit };
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
        return { type: 'dtmf', digit: message.dtmf.digit };
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

/** Text frames in and out for one protocol, for a pipeline that never sees carrier messages. */
export interface MediaStreamCodec {
  readonly protocol: MediaStreamProtocol;
  decode(text: string): StreamParseResult<MediaStreamEvent | null>;
  encode(command: MediaStreamCommand, streamId: string): string;
}

export function mediaStreamCodec(protocol: MediaStreamProtocol): MediaStreamCodec {
  return protocol === 'carrier_a' ? codecOf(carrierAStreamAdapter) : codecOf(carrierBStreamAdapter);
}

function codecOf<Inbound, Outbound>(adapter: MediaStreamAdapter<Inbound, Outbound>): MediaStreamCodec {
  return {
    protocol: adapter.protocol,
    decode(text) {
      const parsed = adapter.parse(text);
      return parsed.ok ? { ok: true, message: adapter.toNeutral(parsed.message) } : parsed;
    },
    encode: (command, streamId) => JSON.stringify(adapter.fromNeutral(command, streamId)),
  };
}
