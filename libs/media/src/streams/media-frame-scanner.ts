// The carriers' media frames, read straight from the message's bytes. A carrier sends fifty of them a second per
// call; read the general way (the bytes to a string, JSON.parse, the typed message, then the neutral event)
// each costs a string of the whole message, an object tree with the payload as a second string, and three
// objects more, all garbage 20 ms later. This reader scans the bytes in place and allocates only what the
// pipeline keeps: the decoded audio and its event.
//
// It takes only what it is sure of: a media frame whose every field the general reader would accept, written
// in the plain JSON carriers send (no escapes, integer counters). Anything else (another event, a field it would
// refuse, an escape, a decimal, an array) it leaves to the general reader, which then answers exactly as it
// always has, errors included; so both ways give the same result for every message.
import { MediaStreamEvent } from './media-stream-event';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Integers beyond this many digits are left to the general reader (doubles hold 15 digits exactly). */
const MAX_DIGITS = 15;

// The fields read, by slot. Top level: event, the stream id, sequenceNumber, media; inside media the rest.
const EVENT = 0;
const STREAM_ID = 1;
const SEQUENCE = 2;
const MEDIA = 3;
const TRACK = 4;
const CHUNK = 5;
const TIMESTAMP = 6;
const PAYLOAD = 7;
const SLOTS = 8;

const ABSENT = 0;
const STRING = 1;
const NUMBER = 2;
const OBJECT = 3;
const LITERAL = 4;

/** Where each field's value lies in the message (a string's contents without its quotes); reused per scan. */
const kinds = new Uint8Array(SLOTS);
const starts = new Int32Array(SLOTS);
const ends = new Int32Array(SLOTS);

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const KEY_EVENT = ascii('event');
const KEY_SEQUENCE = ascii('sequenceNumber');
const KEY_MEDIA = ascii('media');
const KEY_TRACK = ascii('track');
const KEY_CHUNK = ascii('chunk');
const KEY_TIMESTAMP = ascii('timestamp');
const KEY_PAYLOAD = ascii('payload');
const LITERALS = [ascii('true'), ascii('false'), ascii('null')];

/** Values of the base64 alphabet's characters (-1: not in it). */
const BASE64_VALUES = new Int8Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  BASE64_VALUES[c.charCodeAt(0)] = i;

/** A carrier's media frame format: what its stream id is called, and which track is the caller's. */
export interface MediaFrameFormat {
  streamIdKey: string;
  callerTrack: string;
}

/** A format's names as bytes, made once. */
export interface MediaFrameScanner {
  readonly streamIdKey: Uint8Array;
  readonly callerTrack: Uint8Array;
}

export function mediaFrameScanner(format: MediaFrameFormat): MediaFrameScanner {
  return { streamIdKey: ascii(format.streamIdKey), callerTrack: ascii(format.callerTrack) };
}

/**
 * A media frame's neutral event read from the message's bytes: the caller's audio, or null for another track's
 * (as the general reader gives); undefined when the message is anything else or anything unusual, for the
 * general reader to read.
 */
export function scanMediaFrame(
  bytes: Uint8Array,
  scanner: MediaFrameScanner,
): MediaStreamEvent | null | undefined {
  kinds.fill(ABSENT);
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN) return undefined;
  i = scanObject(bytes, i, 0, scanner);
  if (i < 0 || skipSpace(bytes, i) !== bytes.length) return undefined;

  if (kinds[EVENT] !== STRING || !sameBytes(bytes, starts[EVENT], ends[EVENT], KEY_MEDIA)) return undefined;
  if (kinds[STREAM_ID] !== STRING || ends[STREAM_ID] === starts[STREAM_ID]) return undefined;
  if (Number.isNaN(integerAt(bytes, SEQUENCE)) || kinds[MEDIA] !== OBJECT) return undefined;
  if (kinds[TRACK] !== STRING || ends[TRACK] === starts[TRACK]) return undefined;
  if (Number.isNaN(integerAt(bytes, CHUNK))) return undefined;
  const timestamp = integerAt(bytes, TIMESTAMP);
  if (Number.isNaN(timestamp) || kinds[PAYLOAD] !== STRING) return undefined;
  const payloadLength = base64Length(bytes, starts[PAYLOAD], ends[PAYLOAD]);
  if (payloadLength < 0) return undefined;
  if (!sameBytes(bytes, starts[TRACK], ends[TRACK], scanner.callerTrack)) return null;
  return {
    type: 'audio',
    payload: decodeBase64(bytes, starts[PAYLOAD], ends[PAYLOAD], payloadLength),
    timestamp,
  };
}

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** The end of the string opening at `i` (past its closing quote); -1 for an escape, a control byte or no end. */
function scanString(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    const c = bytes[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  return -1;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** The end of the JSON number starting at `i`, by JSON's grammar; -1 when it is none. */
function scanNumber(bytes: Uint8Array, i: number): number {
  let j = i;
  if (bytes[j] === MINUS) j++;
  if (bytes[j] === ZERO) j++;
  else if (isDigit(bytes[j])) while (isDigit(bytes[j])) j++;
  else return -1;
  if (bytes[j] === DOT) {
    j++;
    if (!isDigit(bytes[j])) return -1;
    while (isDigit(bytes[j])) j++;
  }
  if (bytes[j] === 0x65 || bytes[j] === 0x45) {
    j++;
    if (bytes[j] === PLUS || bytes[j] === MINUS) j++;
    if (!isDigit(bytes[j])) return -1;
    while (isDigit(bytes[j])) j++;
  }
  return j;
}

function scanLiteral(bytes: Uint8Array, i: number): number {
  for (const literal of LITERALS) {
    if (sameBytes(bytes, i, Math.min(bytes.length, i + literal.length), literal)) return i + literal.length;
  }
  return -1;
}

/**
 * Scans the object opening at `i`, noting the fields read at the top level (depth 0) and inside `media`
 * (depth 1, `inMedia`); other objects are only walked (two levels deep at most). Returns the end, or -1.
 */
function scanObject(
  bytes: Uint8Array,
  i: number,
  depth: number,
  scanner: MediaFrameScanner,
  inMedia = false,
): number {
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE) return i + 1;
  for (;;) {
    if (bytes[i] !== QUOTE) return -1;
    const keyEnd = scanString(bytes, i);
    if (keyEnd < 0) return -1;
    const slot = slotOf(bytes, i + 1, keyEnd - 1, depth, inMedia, scanner);
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) return -1;
    i = skipSpace(bytes, i + 1);
    const c = bytes[i];
    let end: number;
    let kind: number;
    if (c === QUOTE) {
      end = scanString(bytes, i);
      kind = STRING;
    } else if (c === OPEN) {
      if (depth >= 2) return -1;
      // A repeated key replaces the earlier value whole (as JSON.parse has it): media's fields start afresh.
      if (slot === MEDIA) kinds.fill(ABSENT, TRACK, SLOTS);
      end = scanObject(bytes, i, depth + 1, scanner, slot === MEDIA);
      kind = OBJECT;
    } else if (c === MINUS || isDigit(c)) {
      end = scanNumber(bytes, i);
      kind = NUMBER;
    } else {
      end = scanLiteral(bytes, i);
      kind = LITERAL;
    }
    if (end < 0) return -1;
    if (slot >= 0) {
      if (slot === MEDIA && kind !== OBJECT) kinds.fill(ABSENT, TRACK, SLOTS);
      kinds[slot] = kind;
      starts[slot] = kind === STRING ? i + 1 : i;
      ends[slot] = kind === STRING ? end - 1 : end;
    }
    i = skipSpace(bytes, end);
    if (bytes[i] === CLOSE) return i + 1;
    if (bytes[i] !== COMMA) return -1;
    i = skipSpace(bytes, i + 1);
  }
}

/** The slot of the key at bytes[start, end), or -1 for a key not read there. */
function slotOf(
  bytes: Uint8Array,
  start: number,
  end: number,
  depth: number,
  inMedia: boolean,
  scanner: MediaFrameScanner,
): number {
  if (depth === 0) {
    if (sameBytes(bytes, start, end, KEY_EVENT)) return EVENT;
    if (sameBytes(bytes, start, end, scanner.streamIdKey)) return STREAM_ID;
    if (sameBytes(bytes, start, end, KEY_SEQUENCE)) return SEQUENCE;
    if (sameBytes(bytes, start, end, KEY_MEDIA)) return MEDIA;
  } else if (depth === 1 && inMedia) {
    if (sameBytes(bytes, start, end, KEY_TRACK)) return TRACK;
    if (sameBytes(bytes, start, end, KEY_CHUNK)) return CHUNK;
    if (sameBytes(bytes, start, end, KEY_TIMESTAMP)) return TIMESTAMP;
    if (sameBytes(bytes, start, end, KEY_PAYLOAD)) return PAYLOAD;
  }
  return -1;
}

function sameBytes(bytes: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.length) return false;
  for (let k = 0; k < expected.length; k++) if (bytes[start + k] !== expected[k]) return false;
  return true;
}

/**
 * The integer a counter field holds, as numberField reads it (a JSON number, or a decimal string); NaN when it
 * is absent, of another kind, or a form left to the general reader (a fraction, an exponent, too many digits).
 */
function integerAt(bytes: Uint8Array, slot: number): number {
  const kind = kinds[slot];
  if (kind !== NUMBER && kind !== STRING) return Number.NaN;
  let i = starts[slot];
  const end = ends[slot];
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  if (end - i === 0 || end - i > MAX_DIGITS) return Number.NaN;
  let value = 0;
  for (; i < end; i++) {
    const c = bytes[i];
    if (!isDigit(c)) return Number.NaN;
    value = value * 10 + (c - ZERO);
  }
  return negative ? -value : value;
}

/**
 * The decoded length of the base64 text at bytes[start, end) when it is what base64Field accepts (whole
 * quartets of the alphabet, padding only in the last); -1 otherwise.
 */
function base64Length(bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length % 4 !== 0) return -1;
  let padding = 0;
  if (length > 0 && bytes[end - 1] === 0x3d) padding = bytes[end - 2] === 0x3d ? 2 : 1;
  for (let i = start; i < end - padding; i++) if (BASE64_VALUES[bytes[i]] < 0) return -1;
  return (length / 4) * 3 - padding;
}

/** Decodes checked base64 text (see base64Length) into a new buffer, as Buffer.from(text, 'base64') does. */
function decodeBase64(bytes: Uint8Array, start: number, end: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let o = 0;
  let i = start;
  for (; o + 3 <= length; i += 4) {
    const n =
      (BASE64_VALUES[bytes[i]] << 18) |
      (BASE64_VALUES[bytes[i + 1]] << 12) |
      (BASE64_VALUES[bytes[i + 2]] << 6) |
      BASE64_VALUES[bytes[i + 3]];
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  if (o < length) {
    // The last quartet is padded: two characters give a byte, three give two.
    const n = (BASE64_VALUES[bytes[i]] << 18) | (BASE64_VALUES[bytes[i + 1]] << 12);
    out[o++] = n >> 16;
    if (o < length) out[o++] = ((n | (BASE64_VALUES[bytes[i + 2]] << 6)) >> 8) & 0xff;
  }
  return out;
}
