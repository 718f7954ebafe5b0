// The partner console in a real browser (Debian's Chromium through playwright-core), through the real gateway:
// an invited user sets a password and signs in, creates a key and sees it once, creates an agent, places a
// sandbox call and reads its transcript and plays its recording, sees the charge in transactions and usage; a
// viewer cannot create a key; another account's call is not found; a request without the CSRF token is
// refused; a user of two accounts chooses one when signing in; no page has serious accessibility violations.
// Screenshots of every page are kept in tmp/e2e-artifacts/console/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { workspaceRoot } from '@vap/testing';
import { adminApi, api, createPartner, e2eEnv } from '../../support';
import {
  launchBrowser,
  LaunchedBrowser,
  seriousA11yViolations,
  watchNetwork,
  type NetworkWatch,
} from '../../support/browser';
import { callee, VOICE_ID } from '../calls/call-fixtures';
import { ConsoleClient, inviteUser } from './console-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';

describe('the partner console in a browser', () => {
  let launched: LaunchedBrowser;
  let browser: Browser;
  let partnerId: string;
  let apiKey: string;
  let owner: BrowserContext;
  let page: Page;
  let network: NetworkWatch;
  const consoleUrl = (path = '') => `${e2eEnv().gatewayUrl}/console${path}`;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    launched = await launchBrowser();
    browser = launched.browser;
    const created = await createPartner({ name: `Console Co ${Date.now()}`, balance_inr: 500 });
    partnerId = created.partner.id;
    apiKey = created.apiKey;

    owner = await browser.newContext();
    page = await owner.newPage();
    network = watchNetwork(page);
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
  });

  /** Signs a new user of the partner in through their invitation link, in a context of their own. */
  async function acceptInvitation(target: Page, role: string, email: string): Promise<void> {
    const link = await inviteUser(partnerId, { email, name: `${role} user`, role });
    await target.goto(link);
    await target.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await target.getByLabel('Password again').fill(PASSWORD);
    await target.getByRole('button', { name: /sign in/i }).click();
    await target.getByRole('heading', { name: 'Agents' }).waitFor();
  }

  it('lets an invited owner set a password and sign in, and signs in again after signing out', async () => {
    const email = `owner-${Date.now()}@example.com`;
    await acceptInvitation(page, 'owner', email);
    await shot('agents');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await shot('sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
  });

  it('creates a key and shows it once', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('console key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!.trim();
    expect(secret).toMatch(/^rg_live_/);
    await shot('keys-created');
    // It works, and it is never shown again.
    expect((await api('/api/v2/billing/balance', { key: secret })).status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: 'console key', exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await shot('keys');
  });

  let callId: string;

  it('creates an agent, places a sandbox call, reads its transcript and plays its recording', async () => {
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('link', { name: 'New agent' }).click();
    // The API's own validation message appears at its field.
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.locator('#main [role=alert]').first().waitFor();
    await shot('agent-errors');
    await page.getByLabel('Name', { exact: true }).fill('Console Maya');
    await page
      .getByLabel('Prompt', { exact: true })
      .fill('You are Maya from Acme Health. You help patients book appointments.');
    await page.getByLabel('Intro message', { exact: true }).fill('Hi, this is Maya from Acme Health.');
    // The builder's sections: the voice (VOICE_ID is the catalog's Neerja) and call handling.
    await page.getByRole('tab', { name: /^Voice/ }).click();
    await page.getByRole('radio', { name: 'Neerja' }).check();
    await page.getByRole('tab', { name: /^Call handling/ }).click();
    await page.getByLabel('Record calls', { exact: true }).check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Console Maya' }).waitFor();
    await shot('agent');
    await page.getByLabel('Sandbox number').fill(callee('00'));
    await page.getByRole('button', { name: 'Call on the sandbox' }).click();
    await page.getByRole('heading', { name: /^Call to / }).waitFor();
    callId = page.url().split('/').pop()!;
    // Followed live until the transcript and the recording are there.
    await page.locator('.timeline li.bot').first().waitFor({ timeout: 90_000 });
    const audio = page.getByLabel('Call recording');
    await audio.waitFor({ timeout: 90_000 });
    // The page's own audio element (typed here: the specs compile without the DOM library).
    type AudioElement = {
      muted: boolean;
      play(): Promise<void>;
      duration: number;
      currentTime: number;
      error: { code: number } | null;
    };
    const played = await audio.evaluate(async (node) => {
      const el = node as unknown as AudioElement;
      el.muted = true;
      await el.play();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { duration: el.duration, time: el.currentTime, error: el.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(0);
    expect(played.time).toBeGreaterThan(0);
    expect(await page.locator('.timeline li').count()).toBeGreaterThan(1);
    await shot('call');
  }, 180_000);

  it('shows the call’s charge in transactions and usage, and follows the balance as it changes', async () => {
    await page.getByRole('link', { name: 'Usage and billing' }).click();
    // The charge lands when the call ends: the page, open already, shows it as it comes.
    await page.getByRole('cell', { name: 'charge' }).first().waitFor({ timeout: 60_000 });
    // The usage of the range counts the call's billed minutes (more than none).
    const usage = (await page.getByText(/ minutes · /).textContent())!;
    expect(Number(usage.split(' minutes')[0])).toBeGreaterThan(0);
    await shot('billing');

    // The operator tops the account up while the page is open: the balance and the entry follow, no reload.
    const balance = (await api('/api/v2/billing/balance', { key: apiKey })).body.data.balance_inr as number;
    const raised = Math.round((balance + 123.45) * 100) / 100;
    expect(
      (await adminApi(`/partners/${partnerId}`, { method: 'PATCH', body: { balance_inr: raised } })).status,
    ).toBe(200);
    await page
      .getByTestId('balance')
      .getByText(`₹${raised.toFixed(2)}`)
      .waitFor({ timeout: 30_000 });
    await page.getByRole('cell', { name: '₹123.45' }).first().waitFor();
  }, 120_000);

  it('shows the other pages', async () => {
    for (const [link, heading, name] of [
      ['Calls', 'Calls', 'calls'],
      ['Campaigns', 'Campaigns', 'campaigns'],
      ['Webhooks', 'Webhooks', 'webhooks'],
      ['Do-not-call and policy', 'Do-not-call list and contact policy', 'contact-policy'],
      ['Team', 'Team', 'team'],
    ]) {
      await page.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await network.quiet();
      await shot(name);
    }
  });

  it('does not find another account’s call', async () => {
    const other = await createPartner({ name: `Other Co ${Date.now()}`, balance_inr: 100 });
    const agent = await api('/api/v2/agent', {
      method: 'POST',
      key: other.apiKey,
      body: { agent_name: 'Other', prompt: 'You help.', voice_id: VOICE_ID, agent_type: 'outbound' },
    });
    const call = await api('/api/v2/calls/start', {
      method: 'POST',
      key: other.apiKey,
      body: { agent_id: agent.body.data.id, to_number: callee('01') },
    });
    expect(call.status).toBe(200);
    await page.goto(consoleUrl(`/calls/${call.body.data.call_id}`));
    await page
      .getByText(/not found/i)
      .first()
      .waitFor();
    await shot('call-not-found');
  });

  it('refuses a state-changing request without the CSRF token', async () => {
    const statuses = await page.evaluate(async () => {
      const body = JSON.stringify({ name: 'no csrf' });
      const headers = { 'content-type': 'application/json' };
      const without = await fetch('/console/api/keys', { method: 'POST', headers, body });
      const answer = (await without.json()) as { error?: { code?: string } };
      return { without: without.status, code: answer.error?.code };
    });
    expect(statuses).toEqual({ without: 403, code: 'FORBIDDEN' });
  });

  it('lets a viewer read but not create a key', async () => {
    const viewerContext = await browser.newContext();
    const viewer = await viewerContext.newPage();
    await acceptInvitation(viewer, 'viewer', `viewer-${Date.now()}@example.com`);
    await viewer.getByRole('link', { name: 'API keys' }).click();
    await viewer.getByRole('cell', { name: 'console key', exact: true }).waitFor();
    expect(await viewer.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    const refused = await viewer.evaluate(async () => {
      const session = (await (await fetch('/console/api/session')).json()) as {
        data: { csrf_token: string };
      };
      const res = await fetch('/console/api/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.data.csrf_token },
        body: JSON.stringify({ name: 'viewer key' }),
      });
      const answer = (await res.json()) as { error?: { code?: string } };
      return { status: res.status, code: answer.error?.code };
    });
    expect(refused).toEqual({ status: 403, code: 'FORBIDDEN' });
    await viewer.screenshot({ path: join(ARTIFACTS, 'keys-viewer.png'), fullPage: true });
    await viewerContext.close();
  });

  it('lets a user of several accounts choose the account to sign in to', async () => {
    const email = `several-${Date.now()}@example.com`;
    const other = await createPartner({ name: `Aardvark Co ${Date.now()}`, balance_inr: 100 });
    const otherName = other.partner.name;
    for (const account of [partnerId, other.partner.id]) {
      const link = await inviteUser(account, { email, name: 'Several', role: 'developer' });
      expect((await new ConsoleClient().useLink(link, PASSWORD)).status).toBe(200);
    }
    const context = await browser.newContext();
    const chooser = await context.newPage();
    await chooser.goto(consoleUrl('/'));
    await chooser.getByLabel('Email').fill(email);
    await chooser.getByLabel('Password').fill(PASSWORD);
    await chooser.getByRole('button', { name: 'Sign in' }).click();
    await chooser.getByRole('heading', { name: 'Choose an account' }).waitFor();
    await chooser.screenshot({ path: join(ARTIFACTS, 'choose-account.png'), fullPage: true });
    await chooser.getByRole('button', { name: otherName }).click();
    await chooser.getByRole('heading', { name: 'Agents' }).waitFor();
    await chooser.getByRole('heading', { name: otherName }).waitFor();
    await context.close();
  });

  it('has no serious or critical accessibility violations on any page', async () => {
    const context = await browser.newContext({ storageState: await owner.storageState() });
    const a11y = await context.newPage();
    const a11yNetwork = watchNetwork(a11y);
    const found: string[] = [];
    for (const path of [
      '/agents',
      '/agents/new',
      `/calls/${callId}`,
      '/calls',
      '/campaigns',
      '/webhooks',
      '/contact-policy',
      '/keys',
      '/billing',
      '/team',
    ]) {
      await a11y.goto(consoleUrl(path));
      await a11y.locator('main :is(h2, [role=alert])').first().waitFor();
      await a11yNetwork.quiet();
      const violations = await seriousA11yViolations(a11y);
      found.push(...violations.map((v) => `${path}: ${v}`));
    }
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
