import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
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
import { S3MultipartWriter } from './s3-multipart-writer';

export interface S3BlobStorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404)
  );
}

/** Objects in one S3 (or S3-compatible) bucket; presigned URLs are S3's own SigV4 query signatures. */
export class S3BlobStorage implements BlobStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobStorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Checksums only where S3 demands them: a presigned PUT must not require the client to send one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer | Readable, options: PutBlobOptions): Promise<BlobHead> {
    assertObjectKey(key);
    const limit = putLimit(options);
    const bytes = Buffer.isBuffer(body) ? body : await collect(body, limit);
    if (limit !== undefined && bytes.length > limit) throw new BlobTooLargeError(limit);
    if (options.exactBytes !== undefined && bytes.length !== options.exactBytes) {
      throw new BlobSizeMismatchError(options.exactBytes, bytes.length);
    }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: bytes,
        ContentType: options.contentType,
      }),
    );
    return { size: bytes.length, contentType: options.contentType };
  }

  openWriter(key: string, options: OpenBlobWriterOptions): BlobWriter {
    assertObjectKey(key);
    return new S3MultipartWriter({ client: this.client, bucket: this.options.bucket, key }, options);
  }

  async head(key: string): Promise<BlobHead | null> {
    assertObjectKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, contentType: res.ContentType ?? null };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async read(key: string, maxBytes: number): Promise<Buffer | null> {
    const found = await this.stream(key);
    if (!found) return null;
    if (found.head.size > maxBytes) {
      found.body.destroy();
      throw new BlobTooLargeError(maxBytes);
    }
    return collect(found.body, maxBytes);
  }

  async stream(key: string): Promise<{ head: BlobHead; body: Readable } | null> {
    assertObjectKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return {
        head: { size: res.ContentLength ?? 0, contentType: res.ContentType ?? null },
        body: res.Body as Readable,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedRequest> {
    assertObjectKey(key);
    const command = new PutObjectCommand({
      Bucket: this.options.bucket,
      Key: key,
      ContentType: options.contentType,
      ContentLength: options.contentLength,
    });
    // Signing Content-Type and Content-Length makes S3 refuse any other type or size.
    const url = await getSignedUrl(this.client, command, {
      expiresIn: options.expiresInSeconds,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000),
    };
  }

  async presignDownload(key: string, options: PresignDownloadOptions): Promise<PresignedRequest> {
    assertObjectKey(key);
    const command = new GetObjectCommand({
      Bucket: this.options.bucket,
      Key: key,
      ResponseContentDisposition: options.fileName ? contentDisposition(options.fileName) : undefined,
    });
    const url = await getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
    return {
      url,
      method: 'GET',
      headers: {},
      expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000),
    };
  }

  destroy(): void {
    this.client.destroy();
  }
}

async function collect(body: Readable, maxBytes?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (maxBytes !== undefined && size > maxBytes) {
      body.destroy();
      throw new BlobTooLargeError(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
