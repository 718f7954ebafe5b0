import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Hop {
  method: string;
  url: string;
  status: number;
  location: string | null;
  /** The Set-Cookie headers it answered. */
  setCookie: string[];
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

/** A browser's cookies (name, value, host, path): enough for the connect pages' binding cookie. */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; host: string; path: string }>();

  /** Takes a response's Set-Cookie headers (Max-Age=0 deletes). */
  take(url: URL, header: string | string[] | undefined): void {
    for (const line of Array.isArray(header) ? header : header ? [header] : []) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) || '/';
      const key = `${url.host} ${path} ${name}`;
      if (attrs.some((a) => /^max-age=0$/i.test(a))) this.cookies.delete(key);
      else this.cookies.set(key, { value: pair.slice(eq + 1), host: url.host, path });
    }
  }

  /** The Cookie header a request to `url` carries, or undefined. */
  header(url: URL): string | undefined {
    const sent = [...this.cookies.entries()]
      .filter(([, c]) => c.host === url.host && url.pathname.startsWith(c.path))
      .map(([key, c]) => `${key.split(' ')[2]}=${c.value}`);
    return sent.length ? sent.join('; ') : undefined;
  }
}

/**
 * What a customer's browser does with a link: GET it and follow each redirect (a 302/303 as a GET, RFC 9110
 * §15.4), across http and https, trusting the run's test CA, until a page answers. A form post is the first
 * request's method with a form body. Cookies are kept and sent back, as a browser does. Plain node:http, so it is not mistaken for a call of the partner API.
 */
export async function browse(
  url: string,
  options: {
    method?: 'GET' | 'POST';
    form?: Record<string, string>;
    maxHops?: number;
    /** The browser's cookies, kept across hops (and across calls when one jar is passed to several). */
    jar?: CookieJar;
    /** A redirect to a URL starting with this is not followed: its answer is the page (the Location in hops). */
    stopBefore?: string;
  } = {},
): Promise<BrowsedPage> {
  const jar = options.jar ?? new CookieJar();
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
            ...(jar.header(target) ? { cookie: jar.header(target) } : {}),
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
    jar.take(target, res.headers['set-cookie']);
    const location = typeof res.headers.location === 'string' ? res.headers.location : null;
    const cookies = res.headers['set-cookie'] ?? [];
    const setCookie = Array.isArray(cookies) ? cookies : [cookies];
    hops.push({ method, url: current, status: res.status, location, setCookie });
    const next = location ? new URL(location, current).toString() : null;
    if (
      res.status >= 300 &&
      res.status < 400 &&
      next &&
      !(options.stopBefore && next.startsWith(options.stopBefore))
    ) {
      current = next;
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
