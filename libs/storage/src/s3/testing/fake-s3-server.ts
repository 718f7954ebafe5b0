// Test kit: an S3 endpoint on 127.0.0.1 speaking the REST protocol the SDK uses (path-style), for the object and
// multipart-upload calls the driver makes, with S3's rules where they matter: parts but the last at least 5 MiB,
// parts named by the ETags they were given, an aborted upload gone. Not used by the service.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const MIN_PART_BYTES = 5 * 1024 * 1024;

export interface FakeS3Object {
  body: Buffer;
  contentType: string | null;
  /** The object's tags (x-amz-tagging), as a query string. */
  tagging?: string;
}

export interface FakeS3Upload {
  key: string;
  contentType: string | null;
  parts: Map<number, { body: Buffer; etag: string }>;
}

/** One request as the server saw it: `PUT key?partNumber=2`, `POST key?uploads`, ... */
export interface FakeS3Request {
  method: string;
  key: string;
  query: string;
  bytes: number;
}

export class FakeS3Server {
  readonly objects = new Map<string, FakeS3Object>();
  readonly uploads = new Map<string, FakeS3Upload>();
  readonly requests: FakeS3Request[] = [];
  /** Answers the next request it matches with 403 AccessDenied (an error the SDK does not retry), once. */
  refuse: ((request: FakeS3Request) => boolean) | null = null;
  private server!: Server;

  private constructor(readonly bucket: string) {}

  static async start(bucket = 'fake-bucket'): Promise<FakeS3Server> {
    const fake = new FakeS3Server(bucket);
    fake.server = createServer((req, res) => {
      void fake.handle(req, res).catch((err: Error) => fake.error(res, 500, 'InternalError', err.message));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const q = url.searchParams;
    const request: FakeS3Request = { method: req.method ?? '', key, query: url.search, bytes: body.length };
    this.requests.push(request);
    if (bucket !== this.bucket) return this.error(res, 404, 'NoSuchBucket', 'no such bucket');
    if (this.refuse?.(request)) {
      this.refuse = null;
      return this.error(res, 403, 'AccessDenied', 'refused by the test');
    }
    const contentType = (req.headers['content-type'] as string | undefined) ?? null;

    if (req.method === 'POST' && q.has('uploads')) {
      const uploadId = randomUUID();
      this.uploads.set(uploadId, { key, contentType, parts: new Map() });
      return this.xml(
        res,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key>` +
          `<UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (q.has('uploadId')) {
      const uploadId = q.get('uploadId')!;
      const upload = this.uploads.get(uploadId);
      if (!upload || upload.key !== key) return this.error(res, 404, 'NoSuchUpload', 'no such upload');
      if (req.method === 'PUT') {
        const partNumber = Number(q.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
          return this.error(res, 400, 'InvalidArgument', 'bad part number');
        }
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        upload.parts.set(partNumber, { body, etag });
        res.writeHead(200, { ETag: etag }).end();
        return;
      }
      if (req.method === 'DELETE') {
        this.uploads.delete(uploadId);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'POST') return this.completeUpload(res, uploadId, upload, body.toString('utf8'));
    }
    if (req.method === 'PUT') {
      const tagging = req.headers['x-amz-tagging'] as string | undefined;
      this.objects.set(key, { body, contentType, ...(tagging ? { tagging } : {}) });
      res.writeHead(200, { ETag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const object = this.objects.get(key);
      if (!object) return this.error(res, 404, 'NoSuchKey', 'no such key');
      res.writeHead(200, {
        'Content-Length': object.body.length,
        ...(object.contentType ? { 'Content-Type': object.contentType } : {}),
      });
      res.end(req.method === 'GET' ? object.body : undefined);
      return;
    }
    if (req.method === 'DELETE') {
      this.objects.delete(key);
      res.writeHead(204).end();
      return;
    }
    this.error(res, 405, 'MethodNotAllowed', `${req.method} is not handled here`);
  }

  private completeUpload(res: ServerResponse, uploadId: string, upload: FakeS3Upload, xml: string): void {
    const listed = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
      partNumber: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part)?.[1]),
      etag: (/<ETag>(.*?)<\/ETag>/.exec(part)?.[1] ?? '').replace(/&quot;/g, '"'),
    }));
    if (listed.length === 0) return this.error(res, 400, 'MalformedXML', 'no parts');
    const bodies: Buffer[] = [];
    for (let i = 0; i < listed.length; i++) {
      const { partNumber, etag } = listed[i];
      if (i > 0 && partNumber <= listed[i - 1].partNumber) {
        return this.error(res, 400, 'InvalidPartOrder', 'parts must be in ascending order');
      }
      const part = upload.parts.get(partNumber);
      if (!part || part.etag !== etag) return this.error(res, 400, 'InvalidPart', `part ${partNumber}`);
      if (i < listed.length - 1 && part.body.length < MIN_PART_BYTES) {
        return this.error(res, 400, 'EntityTooSmall', `part ${partNumber} is ${part.body.length} bytes`);
      }
      bodies.push(part.body);
    }
    this.uploads.delete(uploadId);
    this.objects.set(upload.key, { body: Buffer.concat(bodies), contentType: upload.contentType });
    this.xml(
      res,
      `<CompleteMultipartUploadResult><Bucket>${this.bucket}</Bucket><Key>${upload.key}</Key>` +
        `<ETag>"${randomUUID()}-${listed.length}"</ETag></CompleteMultipartUploadResult>`,
    );
  }

  private xml(res: ServerResponse, body: string): void {
    res
      .writeHead(200, { 'Content-Type': 'application/xml' })
      .end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  }

  private error(res: ServerResponse, status: number, code: string, message: string): void {
    if (res.headersSent) return void res.destroy();
    res
      .writeHead(status, { 'Content-Type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
      );
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
