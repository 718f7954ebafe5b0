import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { BlobStorageConfig, blobSigningKey, BlobUrlSigner } from '@vap/storage';
import { validateConfig } from '@vap/runtime';
import { api, createPartner, e2eEnv } from '../../support';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function uniqueName(prefix: string): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

/** A fresh partner's API key. */
export async function partnerKey(): Promise<string> {
  return (await createPartner()).apiKey;
}

/** A real PDF: one page per entry, each page the given lines in Helvetica. */
export async function pdfWithPages(pages: string[][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 800 - i * 16, size: 11, font }));
  }
  return Buffer.from(await pdf.save());
}

export async function createAgent(key: string, overrides: Record<string, unknown> = {}): Promise<Any> {
  const voices = await api('/agent/voices', { key });
  const voiceId = voices.body?.data?.voices?.[0]?.voice_id;
  const res = await api('/agent', {
    method: 'POST',
    key,
    body: {
      agent_name: uniqueName('KB agent'),
      prompt: 'Answer questions from the knowledge base.',
      voice_id: voiceId,
      agent_type: 'inbound',
      ...overrides,
    },
  });
  if (res.status !== 200) throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** PUTs bytes to a signed URL as a client would: no API key. */
export async function putFile(url: string, body: Buffer, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'PUT', headers, body });
  const text = await res.text();
  let json: Any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: json };
}

/** Creates, uploads and confirms a document; returns the confirmed record. */
export async function uploadDocument(
  key: string,
  bytes: Buffer,
  input: { type?: string; mime_type?: string; name?: string } = {},
): Promise<Any> {
  const created = await api('/documents', {
    method: 'POST',
    key,
    body: {
      name: input.name ?? uniqueName('Doc'),
      type: input.type ?? 'pdf',
      mime_type: input.mime_type ?? 'application/pdf',
      file_size: bytes.length,
    },
  });
  if (created.status !== 200)
    throw new Error(`POST /documents answered ${created.status}: ${JSON.stringify(created.body)}`);
  const doc = created.body.data;
  const put = await putFile(doc.upload_url, bytes, doc.upload_headers);
  if (put.status !== 200) throw new Error(`upload answered ${put.status}: ${JSON.stringify(put.body)}`);
  const confirmed = await api(`/documents/${doc.id}/confirm`, { method: 'POST', key });
  if (confirmed.status !== 200)
    throw new Error(`confirm answered ${confirmed.status}: ${JSON.stringify(confirmed.body)}`);
  return confirmed.body.data;
}

export async function createWebLink(key: string, url: string, name = uniqueName('Page')): Promise<Any> {
  const res = await api('/documents/web-link', { method: 'POST', key, body: { name, url } });
  if (res.status !== 200)
    throw new Error(`POST /documents/web-link answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function link(key: string, agentId: string, documentId: string): Promise<void> {
  const res = await api(`/agent/${agentId}/documents`, {
    method: 'POST',
    key,
    body: { document_id: documentId },
  });
  if (res.status !== 200) throw new Error(`linking answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/**
 * Waits until the link's indexing is over (indexed or failed) and returns its state. Polls gently: the
 * partner's key is limited to 60 requests a minute.
 */
export async function settledLink(
  key: string,
  agentId: string,
  documentId: string,
  timeoutMs = 30_000,
): Promise<Any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(`/agent/${agentId}/documents`, { key });
    const entry = res.body?.data?.documents?.find((d: Any) => d.document_id === documentId);
    if (entry && (entry.index_status === 'indexed' || entry.index_status === 'failed')) return entry;
    if (Date.now() > deadline) throw new Error(`indexing did not finish: ${JSON.stringify(res.body)}`);
    await sleep(500);
  }
}

export async function search(key: string, agentId: string, query: string, limit?: number) {
  return api(`/agent/${agentId}/knowledge/search`, {
    method: 'POST',
    key,
    body: limit === undefined ? { query } : { query, limit },
  });
}

/** The signer the gateway uses in this run (its key derives from the run's SECRETS_KEY). */
export function runSigner(): BlobUrlSigner {
  return new BlobUrlSigner(
    blobSigningKey(validateConfig(BlobStorageConfig, { SECRETS_KEY: e2eEnv().secretsKey })),
  );
}

export interface PageServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** A local HTTP server for web-link documents: path → [status, content type, body]. */
export async function startPageServer(
  pages: Record<string, [number, string, string | Buffer]>,
): Promise<PageServer> {
  const hits: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits.push(req.url ?? '');
    const page = pages[req.url ?? ''];
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const [status, type, body] = page;
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
