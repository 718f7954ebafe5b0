import { e2eEnv } from './env';

export const PARTNER_API = '/api/v2';
export const OPERATOR_API = '/admin/v1';

export interface ApiOptions {
  method?: string;
  /** A partner API key: sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Any other bearer token, e.g. the operator token (E2E_ADMIN_TOKEN); `key` wins when both are given. */
  token?: string;
  /** Sent as JSON unless it is a string (sent as is) or undefined (no body). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Another gateway replica than the first, e.g. one of e2eEnv().gatewayUrls. */
  baseUrl?: string;
}

// Tests read response bodies freely (`res.body.error.code`); a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBody = any;

export interface ApiResponse<T = AnyBody> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text (undefined when empty). */
  body: T;
}

/** The spec's envelopes, loosely typed for assertions. */
export type Envelope<T = unknown> =
  | { success: true; data: T; [key: string]: unknown }
  | { success: false; error: { code: string; message: string; details?: unknown[]; request_id?: string } };

/** Base URL of the run's (first) gateway, e.g. http://127.0.0.1:41234. */
export function gatewayUrl(): string {
  return e2eEnv().gatewayUrl;
}

const ROOTS = [PARTNER_API, OPERATOR_API, '/health'];

/**
 * Calls the gateway. `path` is under the partner API (`/agents` means `/api/v2/agents`) unless it starts
 * with `/api/v2`, `/admin/v1` or `/health`, which are taken as is.
 */
export async function api<T = AnyBody>(path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  const fullPath = ROOTS.some(
    (root) => path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}?`),
  )
    ? path
    : `${PARTNER_API}${path.startsWith('/') ? '' : '/'}${path}`;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const bearer = options.key ?? options.token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${options.baseUrl ?? gatewayUrl()}${fullPath}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  let parsed: unknown = text || undefined;
  if (isJson && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** Calls the operator API (`/admin/v1<path>`) with the run's operator token. */
export function adminApi<T = AnyBody>(
  path: string,
  options: Omit<ApiOptions, 'key' | 'token'> = {},
): Promise<ApiResponse<T>> {
  const fullPath = path.startsWith(OPERATOR_API)
    ? path
    : `${OPERATOR_API}${path.startsWith('/') ? '' : '/'}${path}`;
  return api<T>(fullPath, { ...options, token: e2eEnv().adminToken });
}
