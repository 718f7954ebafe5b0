// A browser's media stream (`/browser/<sessionId>`): binary messages are PCM16 little-endian mono 16 kHz audio
// both ways, text messages are small JSON objects with a `type`. The codec turns it into the neutral events and
// commands carriers' codecs produce (mu-law 8 kHz audio), so the conversation never knows a browser is there.
import { endianness } from 'node:os';
import { dtmfKeyOf } from '../audio/dtmf';
import { mulawDecode, mulawEncode } from '../audio/mulaw';
import { pcm16FromBuffer, pcm16ToBuffer } from '../audio/pcm';
import { Resampler } from '../audio/resample';
import type { MediaStreamCodec } from './media-stream-codec';
import type { MediaSessionNotice, MediaStreamCommand, MediaStreamEvent } from './media-stream-event';
import { isJsonObject, StreamParseError, StreamParseResult } from './stream-message-fields';

/** The browser's audio: PCM16 mono at 16 kHz, two bytes a sample. */
export const BROWSER_SAMPLE_RATE = 16_000;
/** 16 kHz PCM16: 32 bytes a ms; a 20 ms frame is 640 bytes. */
export const BROWSER_AUDIO_BYTES_PER_MS = (BROWSER_SAMPLE_RATE / 1000) * 2;
/** The conversation's audio rate (mu-law 8 kHz). */
const TELEPHONY_RATE = 8000;

const LITTLE_ENDIAN_HOST = endianness() === 'LE';
/** Whether `buf`'s bytes can be read and written as PCM16 samples in place (little-endian, 2-byte aligned). */
function samplesInPlace(buf: Uint8Array): boolean {
  return LITTLE_ENDIAN_HOST && buf.byteOffset % 2 === 0;
}

/** end_call_reason of a browser session the user ended (`{"type":"end"}`). */
export const BROWSER_CALLER_ENDED = 'caller_ended';
/** end_call_reason of a browser session whose socket the client closed without `end` (tab closed, network). */
export const BROWSER_CALLER_DISCONNECTED = 'caller_disconnected';

/** A typed caller line (`user_text`) holds at most this many characters (Unicode code points). */
export const USER_TEXT_MAX_CHARS = 1000;

/** What the browser sends as text, parsed. */
export type BrowserInbound =
  | { type: 'played'; name: string }
  /** A line the user typed: their final utterance (trimmed, 1 to USER_TEXT_MAX_CHARS characters). */
  | { type: 'user_text'; text: string }
  /** The user is typing a line (a test panel's or page's text box): they are there, though silent. */
  | { type: 'typing' }
  | { type: 'end' }
  | { type: 'mute'; muted: boolean }
  /** A key of the page's keypad. */
  | { type: 'dtmf'; digit: string };

/** Reads one text message from a browser; anything malformed or unknown comes back as a typed error. */
export function parseBrowserMessage(text: string): StreamParseResult<BrowserInbound> {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { ok: false, error: { reason: 'invalid_json' } };
  }
  if (!isJsonObject(frame)) return { ok: false, error: { reason: 'not_an_object' } };
  const type = frame['type'];
  if (typeof type !== 'string') return { ok: false, error: { reason: 'invalid_field', field: 'type' } };
  switch (type) {
    case 'played': {
      const name = frame['name'];
      if (typeof name !== 'string' || name.length === 0)
        return { ok: false, error: { reason: 'invalid_field', event: type, field: 'name' } };
      return { ok: true, message: { type, name } };
    }
    case 'end':
    case 'typing':
      return { ok: true, message: { type } };
    case 'mute': {
      const muted = frame['muted'];
      if (typeof muted !== 'boolean')
        return { ok: false, error: { reason: 'invalid_field', event: type, field: 'muted' } };
      return { ok: true, message: { type, muted } };
    }
    case 'dtmf': {
      const digit = frame['digit'];
      if (typeof digit !== 'string' || digit.length === 0)
        return { ok: false, error: { reason: 'invalid_field', event: type, field: 'digit' } };
      return { ok: true, message: { type, digit } };
    }
    case 'user_text': {
      const given = frame['text'];
      const text = typeof given === 'string' ? given.trim() : '';
      if (text.length === 0 || codePoints(text) > USER_TEXT_MAX_CHARS)
        return { ok: false, error: { reason: 'invalid_field', event: type, field: 'text' } };
      return { ok: true, message: { type, text } };
    }
    default:
      return { ok: false, error: { reason: 'unknown_event', event: type } };
  }
}

/** Characters as a person counts them (code points, not UTF-16 units), stopping past the bound. */
function codePoints(text: string): number {
  if (text.length <= USER_TEXT_MAX_CHARS) return text.length;
  let count = 0;
  for (const _ of text) if (++count > USER_TEXT_MAX_CHARS) break;
  return count;
}

/**
 * One browser stream's codec. Caller audio is resampled 16 kHz -> 8 kHz and mu-law encoded (while muted it is
 * dropped: the session feeds silence on its own clock instead, so the line keeps its clock whether the client
 * sends frames or not); the agent's mu-law 8 kHz is decoded and resampled to 16 kHz. Each direction keeps its
 * resampler's history, so frames join without clicks: one codec per stream.
 */
export class BrowserStreamCodec implements MediaStreamCodec {
  readonly protocol = 'browser' as const;
  readonly audioBytesPerMs = BROWSER_AUDIO_BYTES_PER_MS;
  readonly startsOnAdmission = true;
  readonly peerCloseReason = BROWSER_CALLER_DISCONNECTED;
  private down = new Resampler(BROWSER_SAMPLE_RATE, TELEPHONY_RATE);
  private up = new Resampler(TELEPHONY_RATE, BROWSER_SAMPLE_RATE);
  private mutedNow = false;
  /**
   * Scratch samples reused frame after frame (the decoded agent frame, the narrowed caller frame): each is
   * consumed before the next frame arrives. At hundreds of streams, short-lived arrays per 20 ms frame are
   * what drives the garbage collector's pauses, and those pauses are what delay frames.
   */
  private decoded = new Int16Array(0);
  private narrowed = new Int16Array(0);
  private received = new Int16Array(0);

  /** The user muted the microphone (`mute`): caller audio is dropped, and the session feeds silence. */
  get muted(): boolean {
    return this.mutedNow;
  }

  decode(text: string): StreamParseResult<MediaStreamEvent | null> {
    const parsed = parseBrowserMessage(text);
    if (!parsed.ok) return parsed;
    const message = parsed.message;
    switch (message.type) {
      case 'played':
        return { ok: true, message: { type: 'played', mark: message.name } };
      case 'end':
        return { ok: true, message: { type: 'stopped', reason: BROWSER_CALLER_ENDED } };
      case 'mute':
        // Audio after a mute change does not continue what came before it.
        if (message.muted !== this.mutedNow) this.down = new Resampler(BROWSER_SAMPLE_RATE, TELEPHONY_RATE);
        this.mutedNow = message.muted;
        return { ok: true, message: null };
      case 'user_text':
        return { ok: true, message: { type: 'text', text: message.text } };
      case 'typing':
        return { ok: true, message: { type: 'typing' } };
      case 'dtmf': {
        // As on carriers' streams: a key that is none of the keypad's is dropped.
        const key = dtmfKeyOf(message.digit);
        return { ok: true, message: key === null ? null : { type: 'dtmf', digit: key } };
      }
    }
  }

  decodeBinary(data: Buffer): StreamParseResult<MediaStreamEvent | null> {
    // Half a sample is no audio a browser sends: the stream is out of step.
    if (data.length % 2 !== 0) return { ok: false, error: { reason: 'invalid_field', field: 'audio' } };
    if (data.length === 0 || this.mutedNow) return { ok: true, message: null };
    const samples = this.callerSamples(data);
    const capacity = this.down.maxOutput(samples.length);
    if (this.narrowed.length < capacity) this.narrowed = new Int16Array(capacity);
    const narrow = this.down.push(samples, this.narrowed);
    // The payload outlives this call (the conversation keeps caller audio): it gets its own buffer.
    return {
      ok: true,
      message: { type: 'audio', payload: mulawEncode(narrow, Buffer.allocUnsafe(narrow.length)) },
    };
  }

  /**
   * The caller frame's samples: a view of the message when it is aligned, else its bytes copied into a reused
   * array (a WebSocket message is often a slice of the socket's read buffer at an odd offset).
   */
  private callerSamples(data: Buffer): Int16Array {
    if (samplesInPlace(data) || !LITTLE_ENDIAN_HOST) return pcm16FromBuffer(data);
    const count = data.length >> 1;
    if (this.received.length < count) this.received = new Int16Array(count);
    new Uint8Array(this.received.buffer, 0, count * 2).set(data.subarray(0, count * 2));
    return this.received.subarray(0, count);
  }

  encode(command: MediaStreamCommand): string | Buffer {
    switch (command.type) {
      case 'sendAudio': {
        const payload = command.payload;
        if (this.decoded.length < payload.length) this.decoded = new Int16Array(payload.length);
        const samples = mulawDecode(payload, this.decoded).subarray(0, payload.length);
        // One allocation per frame: the message itself (the socket holds it until written). The resampler
        // writes straight into it; Buffer's pool hands out 8-byte aligned slices, so the view is direct.
        const capacity = this.up.maxOutput(samples.length);
        const message = Buffer.allocUnsafe(capacity * 2);
        if (!samplesInPlace(message)) return Buffer.from(pcm16ToBuffer(this.up.push(samples)));
        const wide = this.up.push(samples, new Int16Array(message.buffer, message.byteOffset, capacity));
        return message.subarray(0, wide.length * 2);
      }
      case 'mark':
        return JSON.stringify({ type: 'mark', name: command.name });
      case 'clear':
        // What the browser drops is not continued: the next audio starts from a fresh filter.
        this.up = new Resampler(TELEPHONY_RATE, BROWSER_SAMPLE_RATE);
        return JSON.stringify({ type: 'clear' });
    }
  }

  encodeNotice(notice: MediaSessionNotice): string {
    return JSON.stringify(notice);
  }

  /**
   * A malformed typed line is the person's mistake, not a broken client: it is answered with an `error` message
   * and the session goes on. Any other malformed message closes the stream (1007).
   */
  answerInvalid(error: StreamParseError): MediaSessionNotice | null {
    if (error.event !== 'user_text') return null;
    return {
      type: 'error',
      code: 'invalid_user_text',
      message: `user_text needs a text of 1 to ${USER_TEXT_MAX_CHARS} characters; it was not taken`,
    };
  }
}

export function createBrowserStreamCodec(): BrowserStreamCodec {
  return new BrowserStreamCodec();
}
