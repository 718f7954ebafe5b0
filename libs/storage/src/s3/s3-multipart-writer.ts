import {
  AbortMultipartUploadCommand,
  CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { OpenBlobWriterOptions } from '../blob-storage';
import { SequentialBlobWriter } from '../writer/sequential-blob-writer';

/** S3's smallest part: every part of a multipart upload but the last must be at least this long. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

/** The tag on staging objects (see S3MultipartWriter). */
export const S3_STAGING_TAG = 'vap-staging';

export interface S3MultipartTarget {
  client: S3Client;
  bucket: string;
  key: string;
}

/**
 * The S3 driver's writer. Chunks fill one part buffer (5 MiB, reused), and each full part is uploaded while the
 * writer goes on, so the process holds at most one part per object whatever its length. An object that never
 * fills a part is one PutObject at complete().
 *
 * The header (a WAV's sizes) is known only at the end, and it belongs in part 1, which S3 requires to be 5 MiB
 * like every part but the last. So part 1 is uploaded last: when its data (the part less the header's room)
 * fills, that data goes to a staging object beside the key (`<key>.part1`) instead of being held; at complete()
 * the last part is uploaded, part 1 is built from the header and the staging object read back (into the same
 * buffer), uploaded, the upload completed and the staging object (tagged `vap-staging=1`) deleted. The result is the plain object
 * (`header + data`), with one 5 MiB read-back per long object as the price. Without a header part 1 goes up as
 * soon as it fills. A failure or abort() aborts the multipart upload and deletes the staging object.
 */
export class S3MultipartWriter extends SequentialBlobWriter {
  private readonly stagingKey: string;
  private readonly partBytes = S3_MIN_PART_BYTES;
  private part: Buffer | null = null;
  /** Bytes of the part buffer in use (part 1 starts past the header's room). */
  private filled: number;
  /** The part being filled. */
  private partNumber = 1;
  private uploadId: string | null = null;
  private readonly uploaded: CompletedPart[] = [];
  private staged = false;

  constructor(
    private readonly target: S3MultipartTarget,
    options: OpenBlobWriterOptions,
  ) {
    super(options);
    if (this.headerBytes >= this.partBytes) throw new RangeError('the header must be shorter than a part');
    this.stagingKey = `${target.key}.part1`;
    this.filled = this.headerBytes;
  }

  protected async append(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length;) {
      // Allocated on first use: untouched pages of it cost no memory, so a short object costs what it holds.
      const part = (this.part ??= Buffer.allocUnsafe(this.partBytes));
      const taken = chunk.copy(
        part,
        this.filled,
        at,
        at + Math.min(chunk.length - at, this.partBytes - this.filled),
      );
      this.filled += taken;
      at += taken;
      if (this.filled === this.partBytes) await this.flushPart();
    }
  }

  protected async finish(header: Buffer): Promise<void> {
    const { client, bucket, key } = this.target;
    const part = (this.part ??= Buffer.allocUnsafe(this.partBytes));
    if (this.partNumber === 1) {
      header.copy(part, 0);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: part.subarray(0, this.filled),
          ContentType: this.options.contentType,
        }),
      );
      this.part = null;
      return;
    }
    if (this.filled > 0) await this.uploadPart(this.partNumber, part.subarray(0, this.filled));
    if (this.staged) {
      header.copy(part, 0);
      await this.readStaged(part.subarray(this.headerBytes));
      await this.uploadPart(1, part);
    }
    this.part = null;
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: this.uploadId!,
        MultipartUpload: { Parts: [...this.uploaded].sort((a, b) => a.PartNumber! - b.PartNumber!) },
      }),
    );
    this.uploadId = null;
    if (this.staged) {
      this.staged = false;
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: this.stagingKey }));
    }
  }

  protected async discard(): Promise<void> {
    const { client, bucket, key } = this.target;
    this.part = null;
    const pending: Promise<unknown>[] = [];
    if (this.uploadId) {
      pending.push(
        client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: this.uploadId })),
      );
      this.uploadId = null;
    }
    if (this.staged) {
      pending.push(client.send(new DeleteObjectCommand({ Bucket: bucket, Key: this.stagingKey })));
      this.staged = false;
    }
    await Promise.all(pending);
  }

  private async flushPart(): Promise<void> {
    const part = this.part!;
    if (this.partNumber === 1 && this.headerBytes > 0) {
      await this.target.client.send(
        new PutObjectCommand({
          Bucket: this.target.bucket,
          Key: this.stagingKey,
          Body: part.subarray(this.headerBytes),
          ContentType: 'application/octet-stream',
          // A writer killed before it finished leaves this behind: the tag lets a lifecycle rule expire it.
          Tagging: `${S3_STAGING_TAG}=1`,
        }),
      );
      this.staged = true;
    } else {
      await this.uploadPart(this.partNumber, part);
    }
    this.partNumber += 1;
    this.filled = 0;
  }

  private async uploadPart(partNumber: number, body: Buffer): Promise<void> {
    const { client, bucket, key } = this.target;
    if (!this.uploadId) {
      const created = await client.send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: this.options.contentType }),
      );
      if (!created.UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
      this.uploadId = created.UploadId;
    }
    const res = await client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId: this.uploadId,
        PartNumber: partNumber,
        Body: body,
        ContentLength: body.length,
      }),
    );
    this.uploaded.push({ PartNumber: partNumber, ETag: res.ETag });
  }

  /** The staging object's bytes into `into`, which they must fill exactly. */
  private async readStaged(into: Buffer): Promise<void> {
    const res = await this.target.client.send(
      new GetObjectCommand({ Bucket: this.target.bucket, Key: this.stagingKey }),
    );
    let at = 0;
    for await (const piece of res.Body as Readable) {
      const bytes = piece as Buffer;
      if (at + bytes.length > into.length) throw new Error('the staged part 1 is longer than it was written');
      bytes.copy(into, at);
      at += bytes.length;
    }
    if (at !== into.length) throw new Error(`the staged part 1 has ${at} bytes, ${into.length} were written`);
  }
}
