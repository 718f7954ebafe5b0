import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertObjectKey,
  BlobHead,
  BlobStorage,
  BlobSizeMismatchError,
  BlobTooLargeError,
  BlobWriter,
  OpenBlobWriterOptions,
  PresignDownloadOptions,
  PresignedRequest,
  PresignUploadOptions,
  PutBlobOptions,
  putLimit,
} from '../blob-storage';
import { BlobUrlSigner } from '../signing/blob-url-signer';
import { LocalBlobWriter } from './local-blob-writer';

interface Meta {
  contentType: string;
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Counts bytes on their way to disk and fails the pipeline past the limit. */
function byteLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new BlobTooLargeError(maxBytes));
      done(null, chunk);
    },
  });
}

/**
 * Objects as files under one directory: `objects/<key>` holds the bytes, `meta/<key>.json` the content
 * type. A put writes to `tmp/` and renames into place, so a reader never sees half an object and a failed
 * upload leaves nothing behind. Signed URLs point at the gateway, which verifies them and calls put/stream.
 */
export class LocalBlobStorage implements BlobStorage {
  readonly driver = 'local' as const;
  private readonly root: string;

  constructor(
    root: string,
    /** null: a writer without the signing key (voice), which cannot presign. */
    private readonly signer: BlobUrlSigner | null,
    private readonly signedUrlBase: string,
  ) {
    this.root = resolve(root);
  }

  private signerOrFail(): BlobUrlSigner {
    if (!this.signer) throw new Error('this process has no blob signing key and cannot presign URLs');
    return this.signer;
  }

  private objectPath(key: string): string {
    assertObjectKey(key);
    return join(this.root, 'objects', key);
  }

  private metaPath(key: string): string {
    return join(this.root, 'meta', `${key}.json`);
  }

  async put(key: string, body: Buffer | Readable, options: PutBlobOptions): Promise<BlobHead> {
    const target = this.objectPath(key);
    const tmpDir = join(this.root, 'tmp');
    const tmp = join(tmpDir, `${randomUUID()}.part`);
    await mkdir(tmpDir, { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    await mkdir(dirname(this.metaPath(key)), { recursive: true });
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    const sink = createWriteStream(tmp, { flags: 'wx' });
    const limit = putLimit(options);
    try {
      if (limit !== undefined) await pipeline(source, byteLimit(limit), sink);
      else await pipeline(source, sink);
      const { size } = await stat(tmp);
      // Checked before the rename, so a short body never replaces an earlier complete upload.
      if (options.exactBytes !== undefined && size !== options.exactBytes) {
        throw new BlobSizeMismatchError(options.exactBytes, size);
      }
      await writeFile(
        this.metaPath(key),
        JSON.stringify({ contentType: options.contentType } satisfies Meta),
      );
      await rename(tmp, target);
      return { size, contentType: options.contentType };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  openWriter(key: string, options: OpenBlobWriterOptions): BlobWriter {
    return new LocalBlobWriter(
      { tmpDir: join(this.root, 'tmp'), target: this.objectPath(key), meta: this.metaPath(key) },
      options,
    );
  }

  async head(key: string): Promise<BlobHead | null> {
    try {
      const { size } = await stat(this.objectPath(key));
      return { size, contentType: await this.contentType(key) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  private async contentType(key: string): Promise<string | null> {
    try {
      return (JSON.parse(await readFile(this.metaPath(key), 'utf8')) as Meta).contentType;
    } catch {
      return null;
    }
  }

  async read(key: string, maxBytes: number): Promise<Buffer | null> {
    const head = await this.head(key);
    if (!head) return null;
    if (head.size > maxBytes) throw new BlobTooLargeError(maxBytes);
    try {
      return await readFile(this.objectPath(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async stream(key: string): Promise<{ head: BlobHead; body: Readable } | null> {
    const head = await this.head(key);
    return head ? { head, body: createReadStream(this.objectPath(key)) } : null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.objectPath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedRequest> {
    assertObjectKey(key);
    const expiresAt = this.expiry(options.expiresInSeconds);
    const token = this.signerOrFail().sign({
      method: 'PUT',
      key,
      expiresAt: Math.floor(expiresAt.getTime() / 1000),
      contentType: options.contentType,
      contentLength: options.contentLength,
    });
    return {
      url: `${this.signedUrlBase}/${token}`,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      expiresAt,
    };
  }

  async presignDownload(key: string, options: PresignDownloadOptions): Promise<PresignedRequest> {
    assertObjectKey(key);
    const expiresAt = this.expiry(options.expiresInSeconds);
    const token = this.signerOrFail().sign({
      method: 'GET',
      key,
      expiresAt: Math.floor(expiresAt.getTime() / 1000),
      fileName: options.fileName,
    });
    return { url: `${this.signedUrlBase}/${token}`, method: 'GET', headers: {}, expiresAt };
  }

  private expiry(seconds: number): Date {
    // Whole seconds: the token carries Unix seconds, and the partner sees the same instant.
    return new Date((Math.floor(Date.now() / 1000) + seconds) * 1000);
  }
}
