// carrier_b's side of a bidirectional media stream (Twilio-shaped Media Streams): the frames a carrier sends on
// the WebSocket and the reading of what the platform sends back. The message shapes are the platform's own
// (@vap/media), except that the carrier writes its counters as decimal strings, as the real carrier does.
import { randomBytes } from 'node:crypto';
import {
  CarrierBClear,
  CarrierBConnected,
  CarrierBDtmf,
  CarrierBMarkReached,
  CarrierBMedia,
  CarrierBSendMark,
  CarrierBSendMedia,
  CarrierBStart,
  CarrierBStop,
  FRAME_MS,
} from '@vap/media';

/** Counters as the carrier writes them on the wire: `"5"`, not `5`. */
interface WireHeader {
  sequenceNumber: string;
  streamSid: string;
}

export type CarrierBStartFrame = Omit<CarrierBStart, 'sequenceNumber'> & { sequenceNumber: string };

export type CarrierBMediaFrame = Omit<CarrierBMedia, 'sequenceNumber' | 'media'> & {
  sequenceNumber: string;
  media: Omit<CarrierBMedia['media'], 'chunk' | 'timestamp'> & { chunk: string; timestamp: string };
};

export type CarrierBMarkFrame = Omit<CarrierBMarkReached, keyof WireHeader> & WireHeader;

export type CarrierBStopFrame = Omit<CarrierBStop, keyof WireHeader> & WireHeader;

export type CarrierBDtmfFrame = Omit<CarrierBDtmf, keyof WireHeader> & WireHeader;

/** A frame the carrier sends to the platform. */
export type CarrierBCarrierFrame =
  | CarrierBConnected
  | CarrierBStartFrame
  | CarrierBMediaFrame
  | CarrierBMarkFrame
  | CarrierBDtmfFrame
  | CarrierBStopFrame;

/**
 * A frame the platform sends that the carrier acts on. The stream id is not checked: the carrier only has one
 * stream on the socket.
 */
export type CarrierBPlatformFrame =
  | Omit<CarrierBSendMedia, 'streamSid'>
  | Omit<CarrierBSendMark, 'streamSid'>
  | Omit<CarrierBClear, 'streamSid'>;

export interface CarrierBMediaStreamOptions {
  accountSid: string;
  callSid: string;
  /** Default: a fresh `MZ…` id. */
  streamSid?: string;
}

/**
 * One media stream of one call, from the carrier's side: builds its frames in order, keeping the counters the
 * carrier keeps. Every frame but `connected` takes the next sequence number (from 1); each `media` frame takes
 * the next chunk number (from 1) and is stamped with the media time at its start, 20 ms a chunk.
 */
export class CarrierBMediaStream {
  readonly streamSid: string;
  private sequence = 0;
  private chunk = 0;

  constructor(private readonly options: CarrierBMediaStreamOptions) {
    this.streamSid = options.streamSid ?? `MZ${randomBytes(16).toString('hex')}`;
  }

  /** Sequence numbers taken so far (the last frame's). */
  get sequenceNumber(): number {
    return this.sequence;
  }

  /** Media chunks built so far. */
  get chunks(): number {
    return this.chunk;
  }

  /** The first frame on the socket; it carries no sequence number. */
  connected(): CarrierBConnected {
    return { event: 'connected', protocol: 'Call', version: '1.0.0' };
  }

  /** The second frame: the call, the stream's format and the answer markup's <Parameter>s. */
  start(customParameters: Record<string, string>): CarrierBStartFrame {
    return {
      event: 'start',
      sequenceNumber: this.nextSequence(),
      start: {
        accountSid: this.options.accountSid,
        streamSid: this.streamSid,
        callSid: this.options.callSid,
        tracks: ['inbound'],
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        customParameters,
      },
      streamSid: this.streamSid,
    };
  }

  /** The callee's next chunk of audio (mu-law 8 kHz mono). */
  media(mulaw: Buffer): CarrierBMediaFrame {
    const sequenceNumber = this.nextSequence();
    const chunk = ++this.chunk;
    return {
      event: 'media',
      sequenceNumber,
      media: {
        track: 'inbound',
        chunk: String(chunk),
        timestamp: String((chunk - 1) * FRAME_MS),
        payload: mulaw.toString('base64'),
      },
      streamSid: this.streamSid,
    };
  }

  /** Echoes a platform's mark: the audio queued before it has played, or a clear dropped it. */
  mark(name: string): CarrierBMarkFrame {
    return { event: 'mark', sequenceNumber: this.nextSequence(), streamSid: this.streamSid, mark: { name } };
  }

  /** The callee pressed a key (the carrier detected its tone and reports it instead of passing it as audio). */
  dtmf(digit: string): CarrierBDtmfFrame {
    return {
      event: 'dtmf',
      sequenceNumber: this.nextSequence(),
      streamSid: this.streamSid,
      dtmf: { track: 'inbound_track', digit },
    };
  }

  /** The call ended at the carrier; the socket closes after it. */
  stop(): CarrierBStopFrame {
    return {
      event: 'stop',
      sequenceNumber: this.nextSequence(),
      streamSid: this.streamSid,
      stop: { accountSid: this.options.accountSid, callSid: this.options.callSid },
    };
  }

  private nextSequence(): string {
    return String(++this.sequence);
  }
}

/**
 * Reads a decoded JSON frame from the platform: `media` with a string payload, `mark` with a string name, or
 * `clear`. Anything else is not for the carrier to act on and reads as null.
 */
export function readCarrierBPlatformFrame(frame: unknown): CarrierBPlatformFrame | null {
  if (typeof frame !== 'object' || frame === null) return null;
  const message = frame as { event?: unknown; media?: { payload?: unknown }; mark?: { name?: unknown } };
  switch (message.event) {
    case 'media': {
      const payload = message.media?.payload;
      return typeof payload === 'string' ? { event: 'media', media: { payload } } : null;
    }
    case 'mark': {
      const name = message.mark?.name;
      return typeof name === 'string' ? { event: 'mark', mark: { name } } : null;
    }
    case 'clear':
      return { event: 'clear' };
    default:
      return null;
  }
}

/** Parses one text frame from the platform; non-JSON reads as null, as does anything readCarrierBPlatformFrame skips. */
export function parseCarrierBPlatformFrame(text: string): CarrierBPlatformFrame | null {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return null;
  }
  return readCarrierBPlatformFrame(frame);
}
