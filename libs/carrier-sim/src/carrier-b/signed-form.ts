import { signCarrierB } from '../carrier-signatures';

/** carrier_b's signature header on callbacks and media-stream upgrades. */
export const CARRIER_B_SIGNATURE_HEADER = 'X-Twilio-Signature';

export interface SignedFormPost {
  /** The URL the platform handed out: the signature covers it exactly. */
  url: string;
  /** Where the request really goes (another address of the same receiver); default `url`. */
  target?: string;
  authToken: string;
  fields: Record<string, string>;
  /** Attempts on network errors and 5xx (the receiver drops duplicates); default 1. */
  attempts?: number;
  timeoutMs?: number;
}

export interface FormReply {
  status: number;
  contentType: string;
  body: string;
}

const MAX_REPLY_BYTES = 64 * 1024;

/**
 * A carrier_b callback: the fields form-encoded and POSTed with X-Twilio-Signature over the URL as given.
 * Resolves with the receiver's reply (answer URLs reply with markup); rejects once every attempt failed.
 */
export async function postSignedForm(post: SignedFormPost): Promise<FormReply> {
  const attempts = Math.max(1, post.attempts ?? 1);
  const body = new URLSearchParams(post.fields).toString();
  const signature = signCarrierB(post.authToken, post.url, post.fields);
  let lastError: Error = new Error('not sent');
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const res = await fetch(post.target ?? post.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          [CARRIER_B_SIGNATURE_HEADER]: signature,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(post.timeoutMs ?? 10_000),
      });
      const text = await readBounded(res);
      const reply = { status: res.status, contentType: res.headers.get('content-type') ?? '', body: text };
      if (res.status < 500 || attempt === attempts) return reply;
      lastError = new Error(`HTTP ${res.status}`);
    } catch (err) {
      lastError = err as Error;
    }
    if (attempt < attempts) await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
  }
  throw lastError;
}

/** A reply's text, cut off at MAX_REPLY_BYTES: an answer URL's markup is small. */
async function readBounded(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_REPLY_BYTES) {
      await res.body.cancel().catch(() => undefined);
      break;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
