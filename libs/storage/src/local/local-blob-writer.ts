import { randomUUID } from 'node:crypto';
import { open, mkdir, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { OpenBlobWriterOptions } from '../blob-storage';
import { SequentialBlobWriter } from '../writer/sequential-blob-writer';

export interface LocalBlobPaths {
  /** The driver's directory of files being written. */
  tmpDir: string;
  /** Where the object's bytes go once complete. */
  target: string;
  /** Where its content type goes. */
  meta: string;
}

/**
 * The local driver's writer: chunks are appended to a file under `tmp/`, the header (room kept for it at the
 * start) is written in place at the end, and the file is renamed to its key, as put() does with a whole body.
 */
export class LocalBlobWriter extends SequentialBlobWriter {
  private readonly tmp: string;
  private file: FileHandle | null = null;
  /** Where the next chunk goes in the file. */
  private position: number;

  constructor(
    private readonly paths: LocalBlobPaths,
    options: OpenBlobWriterOptions,
  ) {
    super(options);
    this.tmp = join(paths.tmpDir, `${randomUUID()}.part`);
    this.position = this.headerBytes;
  }

  protected async append(chunk: Buffer): Promise<void> {
    const file = await this.opened();
    await writeAll(file, chunk, this.position);
    this.position += chunk.length;
  }

  protected async finish(header: Buffer): Promise<void> {
    const file = await this.opened();
    if (header.length) await writeAll(file, header, 0);
    await file.close();
    this.file = null;
    await mkdir(dirname(this.paths.target), { recursive: true });
    await mkdir(dirname(this.paths.meta), { recursive: true });
    await writeFile(this.paths.meta, JSON.stringify({ contentType: this.options.contentType }));
    await rename(this.tmp, this.paths.target);
  }

  protected async discard(): Promise<void> {
    await this.file?.close().catch(() => undefined);
    this.file = null;
    await rm(this.tmp, { force: true });
  }

  /** The temporary file, created on first use with the header's room in it (zeros until complete). */
  private async opened(): Promise<FileHandle> {
    if (this.file) return this.file;
    await mkdir(this.paths.tmpDir, { recursive: true });
    this.file = await open(this.tmp, 'wx');
    if (this.headerBytes) await writeAll(this.file, Buffer.alloc(this.headerBytes), 0);
    return this.file;
  }
}

/** pwrite until all of `bytes` is at `position` (a write may take fewer bytes than it was given). */
async function writeAll(file: FileHandle, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}
