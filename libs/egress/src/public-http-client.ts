import { Agent, Dispatcher, request } from 'undici';
import { PrivateNetworkGuard } from './private-network-guard';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface PublicFetchOptions {
  /** Whole request, redirects included. */
  timeoutMs: number;
  /** Largest response body accepted; a larger one fails with ResponseTooLargeError. */
  maxBytes: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Cancels the request from outside (its reason is what the call rejects with); not a timeout. */
  signal?: AbortSignal;
}

export interface PublicFetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Media type without parameters, lower case ('' when absent). */
  contentType: string;
  /** The charset parameter of Content-Type, if any. */
  charset?: string;
  /** Response headers as undici gives them (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`response body exceeds ${maxBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

export class FetchTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    /** The connection itself was not made in time (the connect timeout), rather than the answer. */
    readonly connecting = false,
  ) {
    super(`no complete response within ${timeoutMs} ms`);
    this.name = 'FetchTimeoutError';
  }
}

export class UnsupportedUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedUrlError';
  }
}

function parseContentType(header: string | string[] | undefined): { type: string; charset?: string } {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return { type: '' };
  const [type, ...params] = value.split(';');
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([k]) => k.toLowerCase() === 'charset')?.[1]
    ?.replace(/"/g, '');
  return { type: type.trim().toLowerCase(), charset };
}

/**
 * GETs http(s) resources on the public internet for features that fetch URLs partners give us (knowledge
 * base web links, later webhook deliveries): every hop of a redirect chain goes through the private-network
 * guard, the whole exchange has a deadline, and the body is cut off at a size limit instead of buffered.
 */
export class PublicHttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly guard: PrivateNetworkGuard,
    connectTimeoutMs = 5000,
  ) {
    this.agent = new Agent({ connect: { lookup: guard.lookup, timeout: connectTimeoutMs } });
  }

  async get(url: string, options: PublicFetchOptions): Promise<PublicFetchResult> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      return await this.follow(url, options, signal);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (signal.aborted || (typeof code === 'string' && /^UND_ERR_\w*TIMEOUT$/.test(code))) {
        throw new FetchTimeoutError(options.timeoutMs);
      }
      throw err;
    }
  }

  /**
   * POSTs a body to a public URL (decision and webhook URLs). Redirects are not followed: the answer of
   * the URL given is the answer, so a body is never re-sent somewhere the partner did not name.
   */
  async post(url: string, body: string, options: PublicFetchOptions): Promise<PublicFetchResult> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const target = this.checkUrl(url);
      const res = await request(target, {
        method: 'POST',
        dispatcher: this.agent,
        signal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        headers: options.headers,
        body,
      });
      return await this.readResponse(target, res, options.maxBytes);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      const code = (err as { code?: unknown }).code;
      if (signal.aborted || (typeof code === 'string' && /^UND_ERR_\w*TIMEOUT$/.test(code))) {
        throw new FetchTimeoutError(options.timeoutMs);
      }
      throw err;
    }
  }

  /**
   * Sends one request with any method and an optional body (partners' functions). Redirects are not
   * followed, as with post(). With `truncate` a body larger than maxBytes is cut there (`truncated`)
   * instead of failing, for callers that pass on a bounded excerpt of whatever came back.
   */
  async send(
    method: string,
    url: string,
    options: PublicFetchOptions & { body?: string; truncate?: boolean },
  ): Promise<PublicFetchResult & { truncated: boolean }> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const target = this.checkUrl(url);
      const res = await request(target, {
        method: method as Dispatcher.HttpMethod,
        dispatcher: this.agent,
        signal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        headers: options.headers,
        body: options.body,
      });
      if (!options.truncate)
        return { ...(await this.readResponse(target, res, options.maxBytes)), truncated: false };
      return await this.readTruncated(target, res, options.maxBytes);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      const code = (err as { code?: unknown }).code;
      if (signal.aborted || (typeof code === 'string' && /^UND_ERR_\w*TIMEOUT$/.test(code))) {
        throw new FetchTimeoutError(options.timeoutMs, !signal.aborted && code === 'UND_ERR_CONNECT_TIMEOUT');
      }
      throw err;
    }
  }

  private async readTruncated(
    url: string,
    res: Dispatcher.ResponseData,
    maxBytes: number,
  ): Promise<PublicFetchResult & { truncated: boolean }> {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        // The rest is never read: the connection is closed rather than drained.
        res.body.destroy();
        break;
      }
      chunks.push(buf);
      size += buf.length;
    }
    const { type, charset } = parseContentType(res.headers['content-type']);
    return {
      url,
      status: res.statusCode,
      contentType: type,
      charset,
      headers: res.headers,
      body: Buffer.concat(chunks),
      truncated,
    };
  }

  private async follow(
    url: string,
    options: PublicFetchOptions,
    signal: AbortSignal,
  ): Promise<PublicFetchResult> {
    let current = this.checkUrl(url);
    for (let hop = 0; ; hop++) {
      const res = await request(current, {
        method: 'GET',
        dispatcher: this.agent,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        headers: options.headers,
      });
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(res.statusCode) && location) {
        await res.body.dump();
        if (hop >= (options.maxRedirects ?? 5)) throw new UnsupportedUrlError('too many redirects');
        current = this.checkUrl(
          new URL(Array.isArray(location) ? location[0] : location, current).toString(),
        );
        continue;
      }
      return this.readResponse(current, res, options.maxBytes);
    }
  }

  private async readResponse(
    url: string,
    res: Dispatcher.ResponseData,
    maxBytes: number,
  ): Promise<PublicFetchResult> {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.body.destroy();
      throw new ResponseTooLargeError(maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new ResponseTooLargeError(maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
    const { type, charset } = parseContentType(res.headers['content-type']);
    return {
      url,
      status: res.statusCode,
      contentType: type,
      charset,
      headers: res.headers,
      body: Buffer.concat(chunks),
    };
  }

  private checkUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UnsupportedUrlError(`not a valid URL: ${raw}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UnsupportedUrlError(`only http and https URLs can be fetched, got ${url.protocol}`);
    }
    if (url.username || url.password) throw new UnsupportedUrlError('URLs with credentials are not fetched');
    this.guard.assertHostAllowed(url.hostname);
    return url.toString();
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
