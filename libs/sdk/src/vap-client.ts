import { type Client, createClient, createConfig } from './generated/client';
import { VapApi } from './generated/sdk.gen';
import { toVapApiError } from './errors';
import { addIdempotencyKey } from './idempotency';
import { CursorPage, ListOperation, PageItem, pages, paginate } from './pagination';
import { DEFAULT_RETRY, RetryOptions, retryingFetch } from './retry';

export interface VapClientOptions {
  /** Where the gateway is, e.g. `https://api.example.com` (the operations' paths start with /api/v2). */
  baseUrl: string;
  /** Partner API key (`rg_live_...`) for the /api/v2 routes. */
  apiKey?: string;
  /** Operator token for the /admin/v1 routes. */
  adminToken?: string;
  /** Retries of 429 and 502 answers (see RetryOptions); false sends every request once. */
  retry?: Partial<RetryOptions> | false;
  /** Headers sent on every request (an X-Request-Id per request is better set per call). */
  headers?: Record<string, string>;
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The generated client set up for the platform: auth, typed errors, idempotency keys, retries. */
export function createVapHttpClient(options: VapClientOptions): Client {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retry =
    options.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  const client = createClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: options.headers,
      throwOnError: true,
      fetch: retryingFetch(send, retry) as typeof fetch,
      auth: (auth) => (auth.key === 'admin_token' ? options.adminToken : options.apiKey),
    }),
  );
  client.interceptors.request.use(addIdempotencyKey);
  client.interceptors.error.use((error, response) => toVapApiError(error, response));
  return client;
}

/**
 * The platform's API: every operation of the OpenAPI document, grouped as its operation ids say
 * (`sdk.agents.create({ body })`, `sdk.calls.start({ body, headers })`), each answering
 * `{ data: <the envelope>, request, response }` and throwing a VapApiError for an error answer; plus the
 * cursor pagers.
 */
export class VapClient extends VapApi {
  readonly http: Client;

  constructor(options: VapClientOptions) {
    const http = createVapHttpClient(options);
    super({ client: http });
    this.http = http;
  }

  /** Every item of a list operation, following next_cursor: `for await (const a of sdk.paginate((o) => sdk.agents.list(o)))`. */
  paginate<O = undefined, P extends CursorPage = CursorPage>(
    list: ListOperation<O, P>,
    options?: O,
  ): AsyncGenerator<PageItem<P>, void, undefined> {
    return paginate(list, options);
  }

  /** Every page of a list operation, following next_cursor. */
  pages<O = undefined, P extends CursorPage = CursorPage>(
    list: ListOperation<O, P>,
    options?: O,
  ): AsyncGenerator<P, void, undefined> {
    return pages(list, options);
  }
}
