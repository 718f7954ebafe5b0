// carrier_a's side of a bidirectional audio stream (Plivo-shaped Audio Streams): the frames a carrier sends on
// the WebSocket and the reading of what the platform sends back. The message shapes are the platform's own
// (@vap/media), except that the carrier writes a media frame's timestamp as a decimal string.
import { randomBytes } from 'node:crypto';
import {
  CARRIER_A_CONTENT_TYPE,
  CARRIER_A_SAMPLE_RATE,
  CarrierACheckpoint,
  CarrierAClearAudio,
  CarrierAClearedAudio,
  CarrierADtmf,
  CarrierAMedia,
  CarrierAPlayAudio,
  CarrierAPlayedStream,
  CarrierAStart,
  FRAME_MS,
} from '@vap/media';

export type CarrierAMediaFrame = Omit<CarrierAMedia, 'media'> & {
  media: Omit<CarrierAMedia['media'], 'timestamp'> & { timestamp: string };
};

export type CarrierAPlayedStreamFrame = Required<CarrierAPlayedStream>;

export type CarrierAClearedAudioFrame = Required<CarrierAClearedAudio>;

/** The carrier also stamps a key press with the stream's media time, as a decimal string. */
export type CarrierADtmfFrame = Required<Omit<CarrierADtmf, 'dtmf'>> & {
  dtmf: { track: string; digit: string; timestamp: string };
};

/** A frame the carrier sends to the platform (carrier_a sends no `stop`: it just closes the socket). */
export type CarrierACarrierFrame =
  | CarrierAStart
  | CarrierAMediaFrame
  | CarrierAPlayedStreamFrame
  | CarrierAClearedAudioFrame
  | CarrierADtmfFrame;

/**
 * A frame the platform sends that the carrier acts on, or `playAudio` in a format the stream did not
 * negotiate (which the carrier cannot play). The stream id is not checked: the carrier only has one stream on
 * the socket.
 */
export type CarrierAPlatformFrame =
  | CarrierAPlayAudio
  | Omit<CarrierACheckpoint, 'streamId'>
  | Omit<CarrierAClearAudio, 'streamId'>
  | { event: 'unplayableAudio'; contentType: unknown; sampleRate: unknown };

export interface CarrierAMediaStreamOptions {
  accountId: string;
  callId: string;
  /** Default: a fresh `MZ…` id. */
  streamId?: string;
}

/**
 * One audio stream of one call, from the carrier's side: builds its frames in order, keeping the counters the
 * carrier keeps. Every frame takes the next sequence number (from 1); each `media` frame takes the next chunk
 * number (from 1) and is stamped with the media time at its start, 20 ms a chunk.
 */
export class CarrierAMediaStream {
  readonly streamId: string;
  private sequence = 0;
  private chunk = 0;

  constructor(private readonly options: CarrierAMediaStreamOptions) {
    this.streamId = options.streamId ?? `MZ${randomBytes(16).toString('hex')}`;
  }

  /** The first frame: the call, the stream's format and the answer markup's extraHeaders as written there. */
  start(extraHeaders?: string): CarrierAStart {
    return {
      event: 'start',
      sequenceNumber: ++this.sequence,
      start: {
        callId: this.options.callId,
        streamId: this.streamId,
        accountId: this.options.accountId,
        tracks: ['inbound'],
        mediaFormat: { encoding: CARRIER_A_CONTENT_TYPE, sampleRate: CARRIER_A_SAMPLE_RATE },
      },
      ...(extraHeaders ? { extra_headers: extraHeaders } : {}),
    };
  }

  /** The callee's next chunk of audio (mu-law 8 kHz mono). */
  media(mulaw: Buffer): CarrierAMediaFrame {
    const sequenceNumber = ++this.sequence;
    const chunk = ++this.chunk;
    return {
      event: 'media',
      sequenceNumber,
      streamId: this.streamId,
      media: {
        track: 'inbound',
        timestamp: String((chunk - 1) * FRAME_MS),
        chunk,
        payload: mulaw.toString('base64'),
      },
    };
  }

  /** The callee pressed a key, stamped with the media time of the stream so far. */
  dtmf(digit: string): CarrierADtmfFrame {
    return {
      event: 'dtmf',
      sequenceNumber: ++this.sequence,
      streamId: this.streamId,
      dtmf: { track: 'inbound', digit, timestamp: String(this.chunk * FRAME_MS) },
    };
  }

  /** Answers a platform's checkpoint once the audio queued before it has played. */
  playedStream(name: string): CarrierAPlayedStreamFrame {
    return { event: 'playedStream', sequenceNumber: ++this.sequence, streamId: this.streamId, name };
  }

  /** Acknowledges a clearAudio (the checkpoints it dropped are not answered). */
  clearedAudio(): CarrierAClearedAudioFrame {
    return { event: 'clearedAudio', sequenceNumber: ++this.sequence, streamId: this.streamId };
  }
}

/**
 * Reads a decoded JSON frame from the platform: `playAudio` with a string payload (in the negotiated format, or
 * else as `unplayableAudio`), `checkpoint` with a string name, or `clearAudio`. Anything else reads as null.
 */
export function readCarrierAPlatformFrame(frame: unknown): CarrierAPlatformFrame | null {
  if (typeof frame !== 'object' || frame === null) return null;
  const message = frame as {
    event?: unknown;
    name?: unknown;
    media?: { payload?: unknown; contentType?: unknown; sampleRate?: unknown };
  };
  switch (message.event) {
    case 'playAudio': {
      const media = message.media;
      if (typeof media?.payload !== 'string') return null;
      if (
        media.contentType !== CARRIER_A_CONTENT_TYPE ||
        Number(media.sampleRate) !== CARRIER_A_SAMPLE_RATE
      ) {
        return { event: 'unplayableAudio', contentType: media.contentType, sampleRate: media.sampleRate };
      }
      return {
        event: 'playAudio',
        media: {
          contentType: CARRIER_A_CONTENT_TYPE,
          sampleRate: CARRIER_A_SAMPLE_RATE,
          payload: media.payload,
        },
      };
    }
    case 'checkpoint':
      return typeof message.name === 'string' ? { event: 'checkpoint', name: message.name } : null;
    case 'clearAudio':
      return { event: 'clearAudio' };
    default:
      return null;
  }
}
