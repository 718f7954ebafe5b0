// The S3 driver's writer against a fake S3 endpoint that speaks the REST protocol (testing/fake-s3-server.ts).
import { BlobTooLargeError } from '../blob-storage';
import { S3BlobStorage } from './s3-blob-storage';
import { S3_MIN_PART_BYTES } from './s3-multipart-writer';
import { FakeS3Server } from './testing/fake-s3-server';

const MiB = 1024 * 1024;

/** `total` bytes of a pattern no two offsets of a part repeat in, as chunks of `chunk` bytes. */
function patterned(total: number, chunk = 32_000): { whole: Buffer; chunks: Buffer[] } {
  const whole = Buffer.alloc(total);
  for (let i = 0; i < total; i += 4) whole.writeUInt32LE(i, Math.min(i, total - 4));
  const chunks: Buffer[] = [];
  for (let at = 0; at < total; at += chunk) chunks.push(whole.subarray(at, Math.min(total, at + chunk)));
  return { whole, chunks };
}

describe('S3BlobStorage.openWriter (multipart upload against a fake S3)', () => {
  let s3: FakeS3Server;
  let storage: S3BlobStorage;

  beforeAll(async () => {
    s3 = await FakeS3Server.start('recordings-bucket');
    storage = new S3BlobStorage({
      bucket: 'recordings-bucket',
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    });
  });

  afterAll(async () => {
    storage.destroy();
    await s3.close();
  });

  beforeEach(() => {
    s3.objects.clear();
    s3.uploads.clear();
    s3.requests.length = 0;
    s3.refuse = null;
  });

  it('an object shorter than a part is one PutObject, its header written at the end', async () => {
    const writer = storage.openWriter('recordings/p/short.wav', { contentType: 'audio/wav', headerBytes: 8 });
    const { whole, chunks } = patterned(100_000);
    for (const c of chunks) void writer.write(c);
    expect(await writer.complete(Buffer.from('HEADER!!'))).toEqual({
      size: 100_008,
      contentType: 'audio/wav',
    });
    const stored = s3.objects.get('recordings/p/short.wav')!;
    expect(stored.contentType).toBe('audio/wav');
    expect(stored.body).toEqual(Buffer.concat([Buffer.from('HEADER!!'), whole]));
    expect(s3.requests.map((r) => `${r.method} ${r.key}${r.query}`)).toEqual([
      'PUT recordings/p/short.wav?x-id=PutObject',
    ]);
    expect(s3.uploads.size).toBe(0);
  });

  it('a long object goes up in 5 MiB parts while it is written; part 1 (with the header) is built at the end', async () => {
    const key = 'recordings/p/long.wav';
    const writer = storage.openWriter(key, { contentType: 'audio/wav', headerBytes: 44 });
    const { whole, chunks } = patterned(12 * MiB + 12_345);
    const sentWhileWriting: number[] = [];
    for (const [i, c] of chunks.entries()) {
      await writer.write(c);
      if (i % 50 === 0) sentWhileWriting.push(s3.requests.reduce((sum, r) => sum + r.bytes, 0));
    }
    // Before complete(): all but the last partial part has left the process.
    const sent = s3.requests.reduce((sum, r) => sum + r.bytes, 0);
    expect(sent).toBe(2 * S3_MIN_PART_BYTES - 44);
    expect(sentWhileWriting.some((bytes) => bytes === S3_MIN_PART_BYTES - 44)).toBe(true);
    expect(s3.objects.get(`${key}.part1`)?.body.length).toBe(S3_MIN_PART_BYTES - 44);
    expect(s3.objects.get(`${key}.part1`)?.tagging).toBe('vap-staging=1');
    expect(s3.objects.has(key)).toBe(false);

    const header = Buffer.alloc(44, 7);
    expect(await writer.complete(header)).toEqual({ size: 44 + whole.length, contentType: 'audio/wav' });
    expect(s3.objects.get(key)!.body.equals(Buffer.concat([header, whole]))).toBe(true);
    expect(s3.objects.get(key)!.contentType).toBe('audio/wav');
    // The staging object is gone, no upload is left open.
    expect([...s3.objects.keys()]).toEqual([key]);
    expect(s3.uploads.size).toBe(0);
    const partUploads = s3.requests.filter((r) => r.query.includes('partNumber'));
    expect(partUploads.map((r) => [new URLSearchParams(r.query).get('partNumber'), r.bytes])).toEqual([
      ['2', S3_MIN_PART_BYTES],
      ['3', 44 + whole.length - 2 * S3_MIN_PART_BYTES],
      ['1', S3_MIN_PART_BYTES],
    ]);
  });

  it('without a header, part 1 goes up as soon as it fills', async () => {
    const writer = storage.openWriter('blobs/p/plain', { contentType: 'application/octet-stream' });
    const { whole, chunks } = patterned(5 * MiB + 10);
    for (const c of chunks) await writer.write(c);
    expect(s3.objects.size).toBe(0);
    expect([...s3.uploads.values()][0].parts.get(1)?.body.length).toBe(S3_MIN_PART_BYTES);
    await writer.complete();
    expect(s3.objects.get('blobs/p/plain')!.body.equals(whole)).toBe(true);
  });

  it('a part S3 refuses fails the writer; abort() aborts the upload and deletes the staging object', async () => {
    const key = 'recordings/p/failed.wav';
    const writer = storage.openWriter(key, { contentType: 'audio/wav', headerBytes: 44 });
    s3.refuse = (r) => r.query.includes('partNumber=3');
    const { chunks } = patterned(16 * MiB);
    const results = await Promise.allSettled(chunks.map((c) => writer.write(c)));
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(/refused by the test/);
    // The first part refused stops everything after it: no further part is sent.
    expect(s3.requests.filter((r) => r.query.includes('partNumber=4'))).toEqual([]);
    await expect(writer.complete(Buffer.alloc(44))).rejects.toThrow(/refused by the test/);
    expect(s3.uploads.size).toBe(1);
    expect(s3.objects.has(`${key}.part1`)).toBe(true);
    await writer.abort();
    expect(s3.uploads.size).toBe(0);
    expect(s3.objects.size).toBe(0);
  });

  it('refuses to grow past maxBytes', async () => {
    const writer = storage.openWriter('recordings/p/big.wav', { contentType: 'audio/wav', maxBytes: 1000 });
    await writer.write(Buffer.alloc(600));
    await expect(writer.write(Buffer.alloc(600))).rejects.toBeInstanceOf(BlobTooLargeError);
    await writer.abort();
    expect(s3.objects.size).toBe(0);
    expect(s3.requests).toEqual([]);
  });
});
