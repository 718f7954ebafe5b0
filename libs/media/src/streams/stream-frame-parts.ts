// Parts both carriers' frames share in shape (they differ in the stream id's name): the audio chunk, the
// DTMF digit and the optional stream id / sequence number header.
import {
  JsonObject,
  base64Field,
  numberField,
  objectField,
  optionalNumberField,
  optionalStringField,
  stringField,
} from './stream-message-fields';

export interface MediaChunk {
  track: string;
  chunk: number;
  timestamp: number;
  /** Base64 audio. */
  payload: string;
}

export interface DtmfDigit {
  track?: string;
  digit: string;
}

/** The frame's `media` object. */
export function readMediaChunk(frame: JsonObject): MediaChunk {
  const media = objectField(frame, 'media');
  return {
    track: stringField(media, 'track', 'media.track'),
    chunk: numberField(media, 'chunk', 'media.chunk'),
    timestamp: numberField(media, 'timestamp', 'media.timestamp'),
    payload: base64Field(media, 'payload', 'media.payload'),
  };
}

/** The frame's `dtmf` object. */
export function readDtmfDigit(frame: JsonObject): DtmfDigit {
  const dtmf = objectField(frame, 'dtmf');
  const track = optionalStringField(dtmf, 'track', 'dtmf.track');
  return { ...(track === undefined ? {} : { track }), digit: stringField(dtmf, 'digit', 'dtmf.digit') };
}

/** The stream id (named `idKey` by the carrier) and sequence number, when the frame carries them. */
export function readOptionalStreamHeader<K extends string>(
  frame: JsonObject,
  idKey: K,
): Partial<Record<K, string>> & { sequenceNumber?: number } {
  const streamId = optionalStringField(frame, idKey);
  const sequenceNumber = optionalNumberField(frame, 'sequenceNumber');
  return {
    ...(streamId === undefined ? {} : { [idKey]: streamId }),
    ...(sequenceNumber === undefined ? {} : { sequenceNumber }),
  } as Partial<Record<K, string>> & { sequenceNumber?: number };
}
