import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { validateConfig } from '@vap/runtime';
import { BLOB_STORAGE, BlobSizeMismatchError, BlobStorage, BlobTooLargeError } from '../blob-storage';
import { BlobStorageConfig, BlobStoreConfig } from '../blob-storage.config';
import { BlobStorageModule } from '../blob-storage.module';
import { BlobUrlSigner } from '../signing/blob-url-signer';
import { LocalBlobStorage } from './local-blob-storage';

describe('LocalBlobStorage', () => {
  let dir: string;
  let storage: LocalBlobStorage;
  const signer = new BlobUrlSigner(randomBytes(32));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blobs-'));
    storage = new LocalBlobStorage(dir, signer, '/api/v2/uploads');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores, describes, reads, streams and deletes an object', async () => {
    await storage.put('documents/p1/d1', Buffer.from('hello'), { contentType: 'text/plain' });
    expect(await storage.head('documents/p1/d1')).toEqual({ size: 5, contentType: 'text/plain' });
    expect((await storage.read('documents/p1/d1', 100))?.toString()).toBe('hello');
    const streamed = await storage.stream('documents/p1/d1');
    const chunks: Buffer[] = [];
    for await (const c of streamed!.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    await storage.delete('documents/p1/d1');
    expect(await storage.head('documents/p1/d1')).toBeNull();
    expect(await storage.read('documents/p1/d1', 100)).toBeNull();
    await expect(storage.delete('documents/p1/d1')).resolves.toBeUndefined();
  });

  it('refuses a stream over the limit and leaves nothing behind', async () => {
    const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(
      storage.put('documents/p1/big', body, { contentType: 'text/plain', maxBytes: 1000 }),
    ).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await storage.head('documents/p1/big')).toBeNull();
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    await expect(storage.read('documents/p1/big', 10)).resolves.toBeNull();
  });

  it('keeps an earlier object when a put of the wrong exact size fails', async () => {
    await storage.put('a/exact', Buffer.from('12345'), { contentType: 'text/plain', exactBytes: 5 });
    await expect(
      storage.put('a/exact', Buffer.from('123'), { contentType: 'text/plain', exactBytes: 5 }),
    ).rejects.toBeInstanceOf(BlobSizeMismatchError);
    await expect(
      storage.put('a/exact', Buffer.from('1234567'), { contentType: 'text/plain', exactBytes: 5 }),
    ).rejects.toBeInstanceOf(BlobTooLargeError);
    expect((await storage.read('a/exact', 10))?.toString()).toBe('12345');
  });

  it('writes an object chunk by chunk to a temporary file, the header in place at the end, then under its key', async () => {
    const writer = storage.openWriter('recordings/p1/c1.wav', { contentType: 'audio/wav', headerBytes: 4 });
    const chunks = [Buffer.from('first '), Buffer.from('second '), Buffer.from('third')];
    // Queued without waiting: they land in order.
    await Promise.all(chunks.map((c) => writer.write(c)));
    expect(writer.bytesWritten).toBe(4 + 18);
    // Nothing at the key yet; the bytes are on disk, not held by the writer.
    expect(await storage.head('recordings/p1/c1.wav')).toBeNull();
    const [tmp] = await readdir(join(dir, 'tmp'));
    expect((await readFile(join(dir, 'tmp', tmp))).toString()).toBe('\0\0\0\0first second third');
    await expect(writer.complete(Buffer.from('HEADER'))).rejects.toThrow(/6 bytes, 4 were reserved/);
    expect(await writer.complete(Buffer.from('HEAD'))).toEqual({ size: 22, contentType: 'audio/wav' });
    expect((await storage.read('recordings/p1/c1.wav', 100))?.toString()).toBe('HEADfirst second third');
    expect(await storage.head('recordings/p1/c1.wav')).toEqual({ size: 22, contentType: 'audio/wav' });
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    await expect(writer.write(Buffer.from('late'))).rejects.toThrow(/completed/);
  });

  it('an aborted or oversized writer leaves nothing behind and an earlier object in place', async () => {
    await storage.put('recordings/p1/c2.wav', Buffer.from('earlier'), { contentType: 'audio/wav' });
    const aborted = storage.openWriter('recordings/p1/c2.wav', { contentType: 'audio/wav' });
    await aborted.write(Buffer.alloc(100));
    await aborted.abort();
    await aborted.abort();
    await expect(aborted.complete()).rejects.toThrow(/aborted/);
    expect((await storage.read('recordings/p1/c2.wav', 100))?.toString()).toBe('earlier');
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);

    const big = storage.openWriter('recordings/p1/c3.wav', { contentType: 'audio/wav', maxBytes: 150 });
    await big.write(Buffer.alloc(100));
    await expect(big.write(Buffer.alloc(100))).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(big.complete()).rejects.toBeInstanceOf(BlobTooLargeError);
    await big.abort();
    expect(await storage.head('recordings/p1/c3.wav')).toBeNull();
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    expect(() => storage.openWriter('../escape', { contentType: 'audio/wav' })).toThrow(/invalid object key/);
  });

  it('refuses to read more than asked for', async () => {
    await storage.put('a/b', Buffer.alloc(50), { contentType: 'application/octet-stream' });
    await expect(storage.read('a/b', 49)).rejects.toBeInstanceOf(BlobTooLargeError);
  });

  it.each(['../etc/passwd', '/abs', 'a//b', 'a/../b', 'a/./b', '.hidden', 'a b', ''])(
    'refuses the key %p',
    async (key) => {
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        /invalid object key/,
      );
    },
  );

  it('presigns uploads and downloads as gateway URLs carrying a verifiable grant', async () => {
    const up = await storage.presignUpload('documents/p1/d1', {
      contentType: 'application/pdf',
      contentLength: 42,
      expiresInSeconds: 900,
    });
    expect(up.method).toBe('PUT');
    expect(up.headers).toEqual({ 'Content-Type': 'application/pdf' });
    expect(up.url.startsWith('/api/v2/uploads/')).toBe(true);
    expect(up.expiresAt.getTime()).toBeGreaterThan(Date.now() + 890_000);
    const check = signer.verify(up.url.slice('/api/v2/uploads/'.length), 'PUT');
    expect(check).toMatchObject({
      ok: true,
      grant: { key: 'documents/p1/d1', contentType: 'application/pdf', contentLength: 42 },
    });

    const down = await storage.presignDownload('documents/p1/d1', {
      expiresInSeconds: 60,
      fileName: 'a.pdf',
    });
    expect(signer.verify(down.url.slice('/api/v2/uploads/'.length), 'GET')).toMatchObject({
      ok: true,
      grant: { key: 'documents/p1/d1', fileName: 'a.pdf' },
    });
  });
});

describe('BlobStorageModule.forWriter (voice: stores recordings, signs nothing)', () => {
  it('needs no signing key: stores and reads what another app signs URLs for, and cannot presign', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blobs-writer-'));
    try {
      // Production rules, the local driver, and neither BLOB_SIGNING_KEY nor SECRETS_KEY.
      const config = validateConfig(BlobStoreConfig, { NODE_ENV: 'production', BLOB_STORAGE_DIR: dir });
      expect(() => validateConfig(BlobStorageConfig, { NODE_ENV: 'production' })).toThrow(/BLOB_SIGNING_KEY/);
      const writer = BlobStorageModule.forWriter(config).providers!.find(
        (p) => (p as { provide?: unknown }).provide === BLOB_STORAGE,
      ) as { useValue: BlobStorage };
      const storage = writer.useValue;
      await storage.put('recordings/p1/c1.wav', Buffer.from('RIFF'), { contentType: 'audio/wav' });
      const signer = new BlobUrlSigner(randomBytes(32));
      const signing = new LocalBlobStorage(dir, signer, '/api/v2/uploads');
      expect(await signing.read('recordings/p1/c1.wav', 100)).toEqual(Buffer.from('RIFF'));
      await expect(storage.presignDownload('recordings/p1/c1.wav', { expiresInSeconds: 60 })).rejects.toThrow(
        /no blob signing key/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
