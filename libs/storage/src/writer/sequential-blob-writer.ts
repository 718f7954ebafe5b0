import {
  assertHeader,
  BlobHead,
  BlobTooLargeError,
  BlobWriter,
  OpenBlobWriterOptions,
} from '../blob-storage';

type State = 'open' | 'completing' | 'completed' | 'aborted';

/**
 * What both drivers' writers share: calls run one after another in the order they were made (a caller need not
 * wait for one write before the next), the size limit is checked before anything is sent, and the first failure
 * sticks, so nothing after it reaches the store and complete() refuses rather than publish a hole.
 */
export abstract class SequentialBlobWriter implements BlobWriter {
  bytesWritten: number;
  protected readonly headerBytes: number;
  private readonly maxBytes: number | undefined;
  private state: State = 'open';
  private failure: Error | null = null;
  private tail: Promise<void> = Promise.resolve();

  protected constructor(protected readonly options: OpenBlobWriterOptions) {
    this.headerBytes = options.headerBytes ?? 0;
    this.maxBytes = options.maxBytes;
    this.bytesWritten = this.headerBytes;
  }

  write(chunk: Buffer): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new Error(`the blob writer is ${this.state}`));
    if (this.maxBytes !== undefined && this.bytesWritten + chunk.length > this.maxBytes) {
      this.failure ??= new BlobTooLargeError(this.maxBytes);
      return Promise.reject(this.failure);
    }
    this.bytesWritten += chunk.length;
    return this.enqueue(() => this.append(chunk));
  }

  complete(header?: Buffer): Promise<BlobHead> {
    if (this.state !== 'open') return Promise.reject(new Error(`the blob writer is ${this.state}`));
    let checked: Buffer;
    try {
      checked = assertHeader(header, this.headerBytes);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    this.state = 'completing';
    const size = this.bytesWritten;
    return this.enqueue(async () => {
      await this.finish(checked, size);
      this.state = 'completed';
      return { size, contentType: this.options.contentType };
    });
  }

  abort(): Promise<void> {
    if (this.state === 'completed' || this.state === 'aborted') return Promise.resolve();
    this.state = 'aborted';
    // After whatever is in flight, so a part being uploaded cannot land after its upload was aborted.
    return this.tail.then(() => this.discard()).catch(() => undefined);
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.tail.then(() => {
      if (this.failure) throw this.failure;
      if (this.state === 'aborted') throw new Error('the blob writer was aborted');
      return op();
    });
    this.tail = run.then(
      () => undefined,
      (err: Error) => {
        this.failure ??= err;
      },
    );
    return run;
  }

  /** Stores `chunk` after everything before it. */
  protected abstract append(chunk: Buffer): Promise<void>;
  /** Writes the header and makes the object (`size` bytes) visible at its key. */
  protected abstract finish(header: Buffer, size: number): Promise<void>;
  /** Removes whatever the writer stored so far. */
  protected abstract discard(): Promise<void>;
}
