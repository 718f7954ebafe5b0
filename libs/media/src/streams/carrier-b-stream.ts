// carrier_b's (Twilio-shaped) bidirectional media stream: JSON text frames over the WebSocket that the
// answer markup's <Connect><Stream> opens. The sandbox carrier speaks the same protocol.
import { escapeXml } from './xml-escape';
import type { AudioMessageTemplate } from './media-frame-writer';
import { readDtmfDigit, readMediaChunk, readOptionalStreamHeader } from './stream-frame-parts';
import {
  JsonObject,
  StreamParseResult,
  numberField,
  objectField,
  parseStreamFrame,
  stringArrayField,
  stringField,
  stringRecordField,
} from './stream-message-fields';

// ---- From the carrier ----

export interface CarrierBConnected {
  event: 'connected';
  protocol: string;
  version: string;
}

export interface CarrierBStart {
  event: 'start';
  sequenceNumber: number;
  streamSid: string;
  start: {
    accountSid: string;
    callSid: string;
    streamSid: string;
    tracks: string[];
    mediaFormat: { encoding: string; sampleRate: number; channels: number };
    /** The <Parameter> name/value pairs of the answer markup. */
    customParameters: Record<string, string>;
  };
}

export interface CarrierBMedia {
  event: 'media';
  streamSid: string;
  sequenceNumber: number;
  media: {
    track: string;
    chunk: number;
    /** Milliseconds since the stream started. */
    timestamp: number;
    /** Base64 mu-law 8 kHz mono. */
    payload: string;
  };
}

export interface CarrierBDtmf {
  event: 'dtmf';
  streamSid?: string;
  sequenceNumber?: number;
  dtmf: { track?: string; digit: string };
}

/** Playback reached a mark the platform sent (or a clear dropped the audio queued before it). */
export interface CarrierBMarkReached {
  event: 'mark';
  streamSid?: string;
  sequenceNumber?: number;
  mark: { name: string };
}

export interface CarrierBStop {
  event: 'stop';
  streamSid?: string;
  sequenceNumber?: number;
  stop: { accountSid: string; callSid: string };
}

export type CarrierBInbound =
  CarrierBConnected | CarrierBStart | CarrierBMedia | CarrierBDtmf | CarrierBMarkReached | CarrierBStop;

const READERS: Readonly<Record<CarrierBInbound['event'], (frame: JsonObject) => CarrierBInbound>> = {
  connected: (frame) => ({
    event: 'connected',
    protocol: stringField(frame, 'protocol'),
    version: stringField(frame, 'version'),
  }),
  start: (frame) => {
    const start = objectField(frame, 'start');
    const format = objectField(start, 'mediaFormat', 'start.mediaFormat');
    return {
      event: 'start',
      sequenceNumber: numberField(frame, 'sequenceNumber'),
      streamSid: stringField(frame, 'streamSid'),
      start: {
        accountSid: stringField(start, 'accountSid', 'start.accountSid'),
        callSid: stringField(start, 'callSid', 'start.callSid'),
        streamSid: stringField(start, 'streamSid', 'start.streamSid'),
        tracks: stringArrayField(start, 'tracks', 'start.tracks'),
        mediaFormat: {
          encoding: stringField(format, 'encoding', 'start.mediaFormat.encoding'),
          sampleRate: numberField(format, 'sampleRate', 'start.mediaFormat.sampleRate'),
          channels: numberField(format, 'channels', 'start.mediaFormat.channels'),
        },
        customParameters: stringRecordField(start, 'customParameters', 'start.customParameters') ?? {},
      },
    };
  },
  media: (frame) => ({
    event: 'media',
    streamSid: stringField(frame, 'streamSid'),
    sequenceNumber: numberField(frame, 'sequenceNumber'),
    media: readMediaChunk(frame),
  }),
  dtmf: (frame) => ({ event: 'dtmf', ...streamHeader(frame), dtmf: readDtmfDigit(frame) }),
  mark: (frame) => ({
    event: 'mark',
    ...streamHeader(frame),
    mark: { name: stringField(objectField(frame, 'mark'), 'name', 'mark.name') },
  }),
  stop: (frame) => {
    const stop = objectField(frame, 'stop');
    return {
      event: 'stop',
      ...streamHeader(frame),
      stop: {
        accountSid: stringField(stop, 'accountSid', 'stop.accountSid'),
        callSid: stringField(stop, 'callSid', 'stop.callSid'),
      },
    };
  },
};

/** Parses one text frame from carrier_b; malformed or unknown frames come back as a typed error. */
export function parseCarrierBMessage(text: string): StreamParseResult<CarrierBInbound> {
  return parseStreamFrame(text, READERS);
}

function streamHeader(frame: JsonObject) {
  return readOptionalStreamHeader(frame, 'streamSid');
}

// ---- To the carrier ----

export interface CarrierBSendMedia {
  event: 'media';
  streamSid: string;
  media: { payload: string };
}

/** Asks the carrier to echo a `mark` once everything queued before it has played. */
export interface CarrierBSendMark {
  event: 'mark';
  streamSid: string;
  mark: { name: string };
}

/** Drops queued audio (barge-in); pending marks come back at once. */
export interface CarrierBClear {
  event: 'clear';
  streamSid: string;
}

export type CarrierBOutbound = CarrierBSendMedia | CarrierBSendMark | CarrierBClear;

/** Audio to play: mu-law 8 kHz mono bytes, queued and played in order. */
export function carrierBMedia(streamSid: string, mulaw: Buffer): CarrierBSendMedia {
  return { event: 'media', streamSid, media: { payload: mulaw.toString('base64') } };
}

/** carrierBMedia's JSON around its payload, for AudioMessageWriter (the same text, key for key). */
export function carrierBMediaTemplate(streamSid: string): AudioMessageTemplate {
  return {
    prefix: `{"event":"media","streamSid":${JSON.stringify(streamSid)},"media":{"payload":"`,
    suffix: '"}}',
  };
}

export function carrierBMark(streamSid: string, name: string): CarrierBSendMark {
  return { event: 'mark', streamSid, mark: { name } };
}

export function carrierBClear(streamSid: string): CarrierBClear {
  return { event: 'clear', streamSid };
}

// ---- Answer markup ----

/**
 * The `<Connect><Stream>` fragment of an answer: a bidirectional stream that holds the call until the socket
 * closes. `parameters` come back in the `start` frame's customParameters.
 */
export function carrierBStreamMarkup(url: string, parameters: Readonly<Record<string, string>> = {}): string {
  const children = Object.entries(parameters)
    .map(([name, value]) => `<Parameter name="${escapeXml(name)}" value="${escapeXml(value)}"/>`)
    .join('');
  return `<Connect><Stream url="${escapeXml(url)}">${children}</Stream></Connect>`;
}
