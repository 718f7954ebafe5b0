// carrier_a's (Plivo-shaped) bidirectional audio stream: JSON text frames over the WebSocket that the answer
// markup's <Stream bidirectional="true"> opens.
import { escapeXml } from './xml-escape';
import type { AudioMessageTemplate } from './media-frame-writer';
import { readDtmfDigit, readMediaChunk, readOptionalStreamHeader } from './stream-frame-parts';
import {
  JsonObject,
  StreamParseResult,
  numberField,
  objectField,
  optionalStringField,
  parseStreamFrame,
  stringArrayField,
  stringField,
} from './stream-message-fields';

// ---- From the carrier ----

export interface CarrierAStart {
  event: 'start';
  sequenceNumber: number;
  start: {
    callId: string;
    streamId: string;
    accountId: string;
    tracks: string[];
    mediaFormat: { encoding: string; sampleRate: number };
  };
  /** The markup's extraHeaders echoed back as `k=v` pairs; read them with parseCarrierAExtraHeaders. */
  extra_headers?: string;
}

export interface CarrierAMedia {
  event: 'media';
  streamId: string;
  sequenceNumber: number;
  media: {
    track: string;
    timestamp: number;
    chunk: number;
    /** Base64 audio in the stream's content type (mu-law 8 kHz here). */
    payload: string;
  };
}

export interface CarrierADtmf {
  event: 'dtmf';
  streamId?: string;
  sequenceNumber?: number;
  dtmf: { track?: string; digit: string };
}

/** The audio queued before a checkpoint has played. */
export interface CarrierAPlayedStream {
  event: 'playedStream';
  streamId?: string;
  sequenceNumber?: number;
  name: string;
}

export interface CarrierAClearedAudio {
  event: 'clearedAudio';
  streamId?: string;
  sequenceNumber?: number;
}

/** Not always sent: the socket may just close when the call ends. */
export interface CarrierAStop {
  event: 'stop';
  streamId?: string;
  sequenceNumber?: number;
}

export type CarrierAInbound =
  CarrierAStart | CarrierAMedia | CarrierADtmf | CarrierAPlayedStream | CarrierAClearedAudio | CarrierAStop;

const READERS: Readonly<Record<CarrierAInbound['event'], (frame: JsonObject) => CarrierAInbound>> = {
  start: (frame) => {
    const start = objectField(frame, 'start');
    const format = objectField(start, 'mediaFormat', 'start.mediaFormat');
    const extraHeaders = optionalStringField(frame, 'extra_headers');
    return {
      event: 'start',
      sequenceNumber: numberField(frame, 'sequenceNumber'),
      start: {
        callId: stringField(start, 'callId', 'start.callId'),
        streamId: stringField(start, 'streamId', 'start.streamId'),
        accountId: stringField(start, 'accountId', 'start.accountId'),
        tracks: stringArrayField(start, 'tracks', 'start.tracks'),
        mediaFormat: {
          encoding: stringField(format, 'encoding', 'start.mediaFormat.encoding'),
          sampleRate: numberField(format, 'sampleRate', 'start.mediaFormat.sampleRate'),
        },
      },
      ...(extraHeaders === undefined ? {} : { extra_headers: extraHeaders }),
    };
  },
  media: (frame) => ({
    event: 'media',
    streamId: stringField(frame, 'streamId'),
    sequenceNumber: numberField(frame, 'sequenceNumber'),
    media: readMediaChunk(frame),
  }),
  dtmf: (frame) => ({ event: 'dtmf', ...streamHeader(frame), dtmf: readDtmfDigit(frame) }),
  playedStream: (frame) => ({
    event: 'playedStream',
    ...streamHeader(frame),
    name: stringField(frame, 'name'),
  }),
  clearedAudio: (frame) => ({ event: 'clearedAudio', ...streamHeader(frame) }),
  stop: (frame) => ({ event: 'stop', ...streamHeader(frame) }),
};

/** Parses one text frame from carrier_a; malformed or unknown frames come back as a typed error. */
export function parseCarrierAMessage(text: string): StreamParseResult<CarrierAInbound> {
  return parseStreamFrame(text, READERS);
}

function streamHeader(frame: JsonObject) {
  return readOptionalStreamHeader(frame, 'streamId');
}

/**
 * Reads echoed extra headers: `k=v` pairs separated by `,` (as written in the markup) or `;` (as some
 * deliveries show them). Pairs without a name or `=` are skipped.
 */
export function parseCarrierAExtraHeaders(raw: string | undefined): Record<string, string> {
  const pairs: [string, string][] = [];
  for (const pair of (raw ?? '').split(/[,;]/)) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    pairs.push([pair.slice(0, at).trim(), pair.slice(at + 1).trim()]);
  }
  return Object.fromEntries(pairs);
}

// ---- To the carrier ----

export const CARRIER_A_CONTENT_TYPE = 'audio/x-mulaw';
export const CARRIER_A_SAMPLE_RATE = 8000;

export interface CarrierAPlayAudio {
  event: 'playAudio';
  media: {
    contentType: typeof CARRIER_A_CONTENT_TYPE;
    sampleRate: typeof CARRIER_A_SAMPLE_RATE;
    payload: string;
  };
}

/** Asks the carrier for a `playedStream` once everything queued before it has played. */
export interface CarrierACheckpoint {
  event: 'checkpoint';
  streamId: string;
  name: string;
}

/** Drops queued audio (barge-in); the carrier answers `clearedAudio`. */
export interface CarrierAClearAudio {
  event: 'clearAudio';
  streamId: string;
}

export type CarrierAOutbound = CarrierAPlayAudio | CarrierACheckpoint | CarrierAClearAudio;

/** Audio to play: mu-law 8 kHz mono bytes. */
export function carrierAPlayAudio(mulaw: Buffer): CarrierAPlayAudio {
  return {
    event: 'playAudio',
    media: {
      contentType: CARRIER_A_CONTENT_TYPE,
      sampleRate: CARRIER_A_SAMPLE_RATE,
      payload: mulaw.toString('base64'),
    },
  };
}

/** carrierAPlayAudio's JSON around its payload, for AudioMessageWriter (the same text, key for key). */
export function carrierAPlayAudioTemplate(): AudioMessageTemplate {
  const format = `"contentType":${JSON.stringify(CARRIER_A_CONTENT_TYPE)},"sampleRate":${JSON.stringify(CARRIER_A_SAMPLE_RATE)}`;
  return { prefix: `{"event":"playAudio","media":{${format},"payload":"`, suffix: '"}}' };
}

export function carrierACheckpoint(streamId: string, name: string): CarrierACheckpoint {
  return { event: 'checkpoint', streamId, name };
}

export function carrierAClearAudio(streamId: string): CarrierAClearAudio {
  return { event: 'clearAudio', streamId };
}

// ---- Answer markup ----

/** The carrier caps extraHeaders at 512 bytes. */
export const CARRIER_A_EXTRA_HEADERS_MAX_BYTES = 512;
// Names and values may not hold the pair separators; ids with dots, dashes and underscores pass.
const EXTRA_HEADER_TOKEN = /^[A-Za-z0-9._-]+$/;

export interface CarrierAStreamMarkupOptions {
  /** Echoed back in the `start` frame's extra_headers. */
  extraHeaders?: Readonly<Record<string, string>>;
  /** Receives StartStream, StopStream and DroppedStream reports. */
  statusCallbackUrl?: string;
}

/**
 * The `<Stream>` element of an answer: bidirectional mu-law 8 kHz that keeps the call alive while the socket
 * is open. The URL is the element's text. Throws RangeError for extra headers the carrier cannot carry.
 */
export function carrierAStreamMarkup(url: string, options: CarrierAStreamMarkupOptions = {}): string {
  const attributes = [
    'bidirectional="true"',
    'keepCallAlive="true"',
    `contentType="${CARRIER_A_CONTENT_TYPE};rate=${CARRIER_A_SAMPLE_RATE}"`,
  ];
  const extraHeaders = encodeExtraHeaders(options.extraHeaders ?? {});
  if (extraHeaders) attributes.push(`extraHeaders="${escapeXml(extraHeaders)}"`);
  if (options.statusCallbackUrl)
    attributes.push(`statusCallbackUrl="${escapeXml(options.statusCallbackUrl)}"`);
  return `<Stream ${attributes.join(' ')}>${escapeXml(url)}</Stream>`;
}

function encodeExtraHeaders(headers: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(headers).map(([name, value]) => {
    if (!EXTRA_HEADER_TOKEN.test(name) || !EXTRA_HEADER_TOKEN.test(value)) {
      throw new RangeError(`extra header ${JSON.stringify(name)} holds characters the carrier cannot carry`);
    }
    return `${name}=${value}`;
  });
  const encoded = pairs.join(',');
  if (Buffer.byteLength(encoded) > CARRIER_A_EXTRA_HEADERS_MAX_BYTES) {
    throw new RangeError(`extra headers exceed ${CARRIER_A_EXTRA_HEADERS_MAX_BYTES} bytes`);
  }
  return encoded;
}
