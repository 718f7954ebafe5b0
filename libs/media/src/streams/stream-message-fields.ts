// Field readers shared by the carriers' message parsers: frames arrive from the network, so every field is
// checked before use and a bad frame becomes a typed error, never an exception.

/** Why an inbound text frame was not understood. */
export type StreamParseErrorReason = 'invalid_json' | 'not_an_object' | 'unknown_event' | 'invalid_field';

export interface StreamParseError {
  reason: StreamParseErrorReason;
  /** The event name when one was read, for logs. */
  event?: string;
  /** The offending field path, for `invalid_field`. */
  field?: string;
}

export type StreamParseResult<T> = { ok: true; message: T } | { ok: false; error: StreamParseError };

/** Thrown inside a parser to abandon a frame; the parser turns it into `invalid_field`. */
export class InvalidStreamField extends Error {
  constructor(readonly field: string) {
    super(`invalid field ${field}`);
  }
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectField(source: JsonObject, key: string, path = key): JsonObject {
  const value = source[key];
  if (!isJsonObject(value)) throw new InvalidStreamField(path);
  return value;
}

export function stringField(source: JsonObject, key: string, path = key): string {
  const value = source[key];
  if (typeof value !== 'string' || value.length === 0) throw new InvalidStreamField(path);
  return value;
}

export function optionalStringField(source: JsonObject, key: string, path = key): string | undefined {
  return source[key] === undefined ? undefined : stringField(source, key, path);
}

/** Carriers send counters and timestamps as numbers or as decimal strings ("5"); both read as a number. */
export function numberField(source: JsonObject, key: string, path = key): number {
  const value = source[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  throw new InvalidStreamField(path);
}

export function optionalNumberField(source: JsonObject, key: string, path = key): number | undefined {
  return source[key] === undefined ? undefined : numberField(source, key, path);
}

export function stringArrayField(source: JsonObject, key: string, path = key): string[] {
  const value = source[key];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new InvalidStreamField(path);
  return value as string[];
}

/** An optional object of string values (custom call parameters); undefined when absent. */
export function stringRecordField(
  source: JsonObject,
  key: string,
  path = key,
): Record<string, string> | undefined {
  const value = source[key];
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) throw new InvalidStreamField(path);
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw new InvalidStreamField(`${path}.${name}`);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain entry.
  return Object.fromEntries(Object.entries(value)) as Record<string, string>;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A base64 audio payload; Buffer.from would silently skip bad characters, so the text is checked first. */
export function base64Field(source: JsonObject, key: string, path = key): string {
  const value = source[key];
  if (typeof value !== 'string' || !BASE64.test(value)) throw new InvalidStreamField(path);
  return value;
}

/**
 * Parses one text frame: JSON, an object, a string `event`, then the carrier's reader for that event. A reader
 * throws InvalidStreamField for a bad field; anything else it throws is a bug and propagates.
 */
export function parseStreamFrame<T>(
  text: string,
  readers: Readonly<Record<string, (frame: JsonObject) => T>>,
): StreamParseResult<T> {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { ok: false, error: { reason: 'invalid_json' } };
  }
  if (!isJsonObject(frame)) return { ok: false, error: { reason: 'not_an_object' } };
  const event = frame['event'];
  if (typeof event !== 'string') return { ok: false, error: { reason: 'invalid_field', field: 'event' } };
  if (!Object.prototype.hasOwnProperty.call(readers, event)) {
    return { ok: false, error: { reason: 'unknown_event', event } };
  }
  try {
    return { ok: true, message: readers[event](frame) };
  } catch (error) {
    if (error instanceof InvalidStreamField) {
      return { ok: false, error: { reason: 'invalid_field', event, field: error.field } };
    }
    throw error;
  }
}
