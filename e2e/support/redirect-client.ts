import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Hop {
  method: string;
  url: string;
  status: number;
  location: string | null;
}

export interface BrowsedPage {
  status: number;
  url: string;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Every request made, the redirects included, in order. */
  hops: Hop[];
}

/**
 * What a customer's browser does with a link: GET it and follow each redirect (a 302/303 as a GET, RFC 9110
 * §15.4), across http and https, trusting the run's test CA, until a page answers. A form post is the first
 * request's method with a form body. Plain node:http, so it is not mistaken for a call of the partner API.
 */
export async function browse(
  url: string,
  options: { method?: 'GET' | 'POST'; form?: Record<string, string>; maxHops?: number } = {},
): Promise<BrowsedPage> {
  const ca = process.env.E2E_TLS_CA ? readFileSync(process.env.E2E_TLS_CA) : undefined;
  const hops: Hop[] = [];
  let method = options.method ?? 'GET';
  let body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  let current = url;
  for (let i = 0; i <= (options.maxHops ?? 10); i++) {
    const target = new URL(current);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const res = await new Promise<{
      status: number;
      headers: Record<string, string | string[] | undefined>;
      body: string;
    }>((resolve, reject) => {
      const req = send(
        target,
        {
          method,
          ca,
          headers: {
            accept: 'text/html',
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () =>
            resolve({
              status: r.statusCode ?? 0,
              headers: r.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          r.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const location = typeof res.headers.location === 'string' ? res.headers.location : null;
    hops.push({ method, url: current, status: res.status, location });
    if (res.status >= 300 && res.status < 400 && location) {
      current = new URL(location, current).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    return {
      status: res.status,
      url: current,
      contentType: String(res.headers['content-type'] ?? ''),
      headers: res.headers,
      body: res.body,
      hops,
    };
  }
  throw new Error(`more than ${options.maxHops ?? 10} redirects from ${url}`);
}
