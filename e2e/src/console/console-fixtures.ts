import type { Browser, Page } from 'playwright-core';
import { adminApi, e2eEnv } from '../../support';

/** An operator's invitation of a user to the partner's console: the one-time link it answers. */
export async function inviteUser(
  partnerId: string,
  user: { email: string; name: string; role: string },
): Promise<string> {
  const res = await adminApi(`/partners/${partnerId}/users`, { method: 'POST', body: user });
  if (res.status !== 200)
    throw new Error(`inviting a user answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.invitation_url as string;
}

export interface ConsoleAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

/**
 * A console client as a browser would be: it keeps the session cookie, sends the CSRF token it was given on
 * requests that change something, and talks to /console/api on the run's gateway.
 */
export class ConsoleClient {
  cookie: string | null = null;
  csrf: string | null = null;

  /** `headers` go with every request (e.g. X-Forwarded-For, on a gateway that believes one proxy). */
  constructor(
    readonly baseUrl = e2eEnv().gatewayUrl,
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    path: string,
    options: { body?: unknown; csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<ConsoleAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.headers,
      ...options.headers,
    };
    if (this.cookie) headers.cookie = this.cookie;
    if (options.csrf !== false && method !== 'GET' && this.csrf) headers['x-csrf-token'] = this.csrf;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}/console/api${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0];
      this.cookie = pair.endsWith('=') ? null : pair;
    }
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    if (body?.data?.csrf_token) this.csrf = body.data.csrf_token;
    return { status: res.status, body, headers: res.headers };
  }

  /** Accepts an invitation (or reset) link with the password: signed in. */
  async useLink(link: string, password: string): Promise<ConsoleAnswer> {
    const path = new URL(link).pathname.replace(/^\/console/, '');
    return this.request('POST', path, { body: { password } });
  }

  signIn(email: string, password: string): Promise<ConsoleAnswer> {
    return this.request('POST', '/session', { body: { email, password } });
  }
}

const OWNER_PASSWORD = 'correct horse battery staple';

/**
 * The only partner of the platform at `gateway` invites an owner, who signs in to its console in a new browser
 * context with the console's CSP, as a partner's browser has it; the page shows Agents.
 */
export async function signInNewOwner(browser: Browser, gateway: string): Promise<Page> {
  const partners = await adminApi('/partners', { baseUrl: gateway });
  const partnerId = partners.body.data.partners[0].id as string;
  const invited = await adminApi(`/partners/${partnerId}/users`, {
    method: 'POST',
    baseUrl: gateway,
    body: {
      email: `owner-${Date.now()}-${partners.body.data.partners.length}@example.com`,
      name: 'Owner',
      role: 'owner',
    },
  });
  if (invited.status !== 200) throw new Error(`inviting an owner answered ${invited.status}`);
  const context = await browser.newContext();
  const page = await context.newPage();
  // The link on this platform's gateway (a link is the path alone without PUBLIC_BASE_URL).
  await page.goto(`${gateway}${new URL(invited.body.data.invitation_url, gateway).pathname}`);
  await page.getByLabel('Password', { exact: true }).fill(OWNER_PASSWORD);
  await page.getByLabel('Password again').fill(OWNER_PASSWORD);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.getByRole('heading', { name: 'Agents' }).waitFor();
  return page;
}
