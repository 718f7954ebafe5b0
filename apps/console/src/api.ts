// The console's one way to reach the platform: the cookie-authenticated console API on the same origin
// (`/console/api`), which serves the public API's routes under `/console/api/v2` with the signed-in user's role.
// Every state-changing request carries the session's CSRF token; the envelope is unwrapped here.

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
  ) {
    super(message);
  }

  /** The message of one field (details name fields with dots for nested ones). */
  fieldMessage(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.message;
  }
}

const BASE = '/console/api';
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

interface Envelope<T> {
  success?: boolean;
  data?: T;
  error?: { code?: string; message?: string; details?: FieldError[] };
}

async function send<T>(
  method: string,
  url: string,
  body: BodyInit | undefined,
  contentType: string | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<{ res: Response; parsed: Envelope<T>; token: string | null }> {
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' };
  const token = csrfToken;
  if (method !== 'GET' && token) headers['x-csrf-token'] = token;
  if (contentType) headers['content-type'] = contentType;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The platform could not be reached. Check your connection.');
  }
  const text = await res.text();
  let parsed: Envelope<T> = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON: reported by the caller as an error of the status.
  }
  return { res, parsed, token };
}

/**
 * The session's CSRF token as the platform has it now, when it differs from `used`: a change refused because the
 * session was renewed (signed in again in another tab) is retried once with it instead of failing the person.
 */
async function renewedCsrfToken(used: string | null): Promise<string | null> {
  try {
    const { res, parsed } = await send<{ csrf_token?: string }>(
      'GET',
      `${BASE}/session`,
      undefined,
      undefined,
    );
    const fresh = res.ok ? parsed.data?.csrf_token : undefined;
    if (!fresh || fresh === used) return null;
    csrfToken = fresh;
    return fresh;
  } catch {
    return null;
  }
}

export async function request<T>(
  method: string,
  path: string,
  options: {
    body?: unknown;
    query?: Query;
    raw?: BodyInit;
    contentType?: string;
    /** Request headers of the API's own (Idempotency-Key); the session's are added here. */
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  let body: BodyInit | undefined;
  let contentType = options.contentType;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    contentType = 'application/json';
  }
  const url = withQuery(`${BASE}${path}`, options.query);
  const first = await send<T>(method, url, body, contentType, options.headers);
  let { res, parsed } = first;
  if (res.status === 403 && method !== 'GET' && (await renewedCsrfToken(first.token)) !== null)
    ({ res, parsed } = await send<T>(method, url, body, contentType, options.headers));
  if (res.ok && parsed.success !== false) return parsed.data as T;
  const error = parsed.error ?? {};
  throw new ApiError(
    res.status,
    error.code ?? 'INTERNAL_ERROR',
    error.message ?? `The request failed (HTTP ${res.status}).`,
    Array.isArray(error.details) ? error.details : [],
  );
}

/** A route of the public API, through the console. */
export const v2 = {
  get: <T>(path: string, query?: Query) => request<T>('GET', `/v2${path}`, { query }),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    request<T>('POST', `/v2${path}`, { body: body ?? {}, headers }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', `/v2${path}`, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', `/v2${path}`, { body }),
  del: <T>(path: string) => request<T>('DELETE', `/v2${path}`),
};

/** The console's own routes (session, keys, team, invitations). */
export const consoleApi = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  del: <T>(path: string) => request<T>('DELETE', path),
};

/**
 * A fresh Idempotency-Key: 128 random bits in hex. getRandomValues, not randomUUID, since a console served over
 * plain HTTP on a private host is no secure context and has no randomUUID.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Every page of a cursor-paginated list (bounded: a console page never holds more than `max`). */
export async function allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next: string | null }>,
  max = 1000,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    out.push(...page.items);
    if (!page.next || out.length >= max) return out.slice(0, max);
    cursor = page.next;
  }
}
