import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
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
