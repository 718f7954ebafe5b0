// Presigning is computed locally (no request is sent), so the URLs can be checked without an S3 service.
import { S3BlobStorage } from './s3-blob-storage';

describe('S3BlobStorage presigning', () => {
  const storage = new S3BlobStorage({
    bucket: 'kb-bucket',
    region: 'ap-south-1',
    endpoint: 'https://s3.example.test',
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  });

  afterAll(() => storage.destroy());

  it('signs the upload for exactly one content type and length', async () => {
    const req = await storage.presignUpload('documents/p1/d1', {
      contentType: 'application/pdf',
      contentLength: 2048,
      expiresInSeconds: 900,
    });
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('https://s3.example.test/kb-bucket/documents/p1/d1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host']),
    );
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^AKIDEXAMPLE\/\d{8}\/ap-south-1\/s3\/aws4_request$/,
    );
    // No checksum parameter the uploading client would have to match.
    expect([...url.searchParams.keys()].some((k) => /checksum/i.test(k))).toBe(false);
    expect(req.headers).toEqual({ 'Content-Type': 'application/pdf' });
  });

  it('presigns downloads with a file name', async () => {
    const req = await storage.presignDownload('documents/p1/d1', {
      expiresInSeconds: 60,
      fileName: 'Price list.pdf',
    });
    const url = new URL(req.url);
    expect(url.searchParams.get('response-content-disposition')).toContain('Price list.pdf');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
  });
});
