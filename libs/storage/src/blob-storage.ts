import type { Readable } from 'node:stream';

/** The storage a service gets injected: local disk or an S3-compatible bucket, chosen by BLOB_STORAGE_DRIVER. */
export const BLOB_STORAGE = Symbol('BLOB_STORAGE');

export interface BlobHead {
  size: number;
  contentType: string | null;
}

export interface PutBlobOptions {
  contentType: string;
  /** The body is refused (BlobTooLargeError) beyond this many bytes. */
  maxBytes?: number;
  /** The body must have exactly this many bytes: more is BlobTooLargeError, fewer BlobSizeMismatchError. */
  exactBytes?: number;
}

export interface OpenBlobWriterOptions {
  contentType: string;
  /** A write that takes the object (header included) beyond this many bytes fails with BlobTooLargeError. */
  maxBytes?: number;
  /**
   * Bytes at the start of the object whose content is known only at the end (a WAV header's sizes): room is kept
   * for them and complete(header) writes them.
   */
  headerBytes?: number;
}

/**
 * An object written a chunk at a time while its content is produced (a call's recording), so the writer never
 * holds the whole of it: the local driver appends to a temporary file, the S3 driver uploads 5 MiB parts as they
 * fill (a multipart upload). Nothing is visible at the key before complete(); a failed write or abort() leaves
 * nothing behind (the S3 driver's leftovers after a crash are incomplete multipart uploads, which the bucket's
 * lifecycle rule removes). Calls are queued in order: write() may be called again before the last one settled.
 */
export interface BlobWriter {
  /** Bytes of the object so far, the reserved header included. */
  readonly bytesWritten: number;
  /** Appends `chunk`; the writer keeps a reference until the returned promise settles. */
  write(chunk: Buffer): Promise<void>;
  /** Writes the header (exactly `headerBytes` long) and puts the object at its key. */
  complete(header?: Buffer): Promise<BlobHead>;
  /** Drops what was written; harmless after a failure, a completion or another abort. */
  abort(): Promise<void>;
}

export interface PresignUploadOptions {
  contentType: string;
  /** Exact size of the body the client must send. */
  contentLength: number;
  expiresInSeconds: number;
}

export interface PresignDownloadOptions {
  expiresInSeconds: number;
  /** Suggested file name for the download. */
  fileName?: string;
}

export interface PresignedRequest {
  url: string;
  method: 'PUT' | 'GET';
  /** Headers the client must send with the request (the ones the signature covers). */
  headers: Record<string, string>;
  expiresAt: Date;
}

/**
 * Object storage behind one interface. Object keys are `/`-separated paths of safe characters
 * (see assertObjectKey); callers namespace them (e.g. `documents/<partnerId>/<id>`).
 *
 * Every process that touches the same objects must see the same storage: in production that is one S3
 * bucket; locally the gateway (which serves signed URLs) and the services share BLOB_STORAGE_DIR.
 */
export interface BlobStorage {
  readonly driver: 'local' | 's3';
  put(key: string, body: Buffer | Readable, options: PutBlobOptions): Promise<BlobHead>;
  /** A writer that builds the object at `key` from chunks (see BlobWriter). */
  openWriter(key: string, options: OpenBlobWriterOptions): BlobWriter;
  /** Size and type of an object, or null when there is none. */
  head(key: string): Promise<BlobHead | null>;
  /** The whole object, or null when there is none; larger than maxBytes is a BlobTooLargeError. */
  read(key: string, maxBytes: number): Promise<Buffer | null>;
  /** A stream of the object, or null when there is none. */
  stream(key: string): Promise<{ head: BlobHead; body: Readable } | null>;
  /** Removes the object; removing an absent one is not an error. */
  delete(key: string): Promise<void>;
  /** A URL the client PUTs the bytes to, without credentials of its own. */
  presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedRequest>;
  presignDownload(key: string, options: PresignDownloadOptions): Promise<PresignedRequest>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`object exceeds ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobSizeMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`object has ${actual} bytes, expected ${expected}`);
    this.name = 'BlobSizeMismatchError';
  }
}

/** The upper bound a put enforces while streaming. */
export function putLimit(options: PutBlobOptions): number | undefined {
  if (options.exactBytes === undefined) return options.maxBytes;
  return options.maxBytes === undefined ? options.exactBytes : Math.min(options.maxBytes, options.exactBytes);
}

/** The header a writer's complete() was given must fill exactly the room reserved for it. */
export function assertHeader(header: Buffer | undefined, headerBytes: number): Buffer {
  const given = header ?? Buffer.alloc(0);
  if (given.length !== headerBytes) {
    throw new RangeError(`header has ${given.length} bytes, ${headerBytes} were reserved`);
  }
  return given;
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys become file paths on the local driver: no `..`, no absolute paths, no odd characters. */
export function assertObjectKey(key: string): void {
  if (key.length > 512 || !KEY_PATTERN.test(key) || key.split('/').some((s) => s === '..' || s === '.')) {
    throw new TypeError(`invalid object key: ${JSON.stringify(key)}`);
  }
}
