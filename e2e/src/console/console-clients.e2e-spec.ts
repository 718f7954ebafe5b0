// The console's Clients page, in Chromium: shown to a reseller only; creating a client (its first key shown
// once), funding it after a confirmation, editing it with the API's field messages at the fields, suspending
// and resuming it, its usage over a range, and its API keys. Each step is checked against the API too.
import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { waitFor } from '@vap/testing';
import { adminApi, api, createPartner, e2eEnv } from '../../support';
import { launchBrowser, LaunchedBrowser, seriousA11yViolations } from '../../support/browser';
import { inviteUser } from './console-fixtures';

jest.setTimeout(180_000);

const PASSWORD = 'correct horse battery staple';

/** A new owner of the account signs in to its console in a context of its own (bypassing CSP for axe). */
async function signInOwner(browser: Browser, partnerId: string): Promise<Page> {
  const gateway = e2eEnv().gatewayUrl;
  const link = await inviteUser(partnerId, {
    email: `owner-${randomUUID()}@example.com`,
    name: 'Owner',
    role: 'owner',
  });
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway });
  const page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${gateway}${new URL(link, gateway).pathname}`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password again').fill(PASSWORD);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.getByRole('heading', { name: 'Agents' }).waitFor();
  return page;
}

/** Waits for the API's message shown at a field: the element its control names in aria-describedby. */
async function fieldMessage(page: Page, control: Locator, message: string | RegExp): Promise<void> {
  await waitFor(async () => ((await control.getAttribute('aria-invalid')) === 'true' ? true : undefined), {
    timeoutMs: 15_000,
    intervalMs: 100,
    description: 'the field marked invalid',
  });
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(texts.some((t) => (typeof message === 'string' ? t === message : message.test(t ?? '')))).toBe(true);
}

async function clientOf(resellerKey: string, name: string): Promise<Record<string, unknown>> {
  const res = await api('/clients?limit=100', { key: resellerKey });
  const found = (res.body.data.clients as { name: string }[]).find((c) => c.name === name);
  if (!found) throw new Error(`no client named ${name}`);
  return found as Record<string, unknown>;
}

describe('console: Clients', () => {
  let launched: LaunchedBrowser;

  beforeAll(async () => {
    launched = await launchBrowser();
  });

  afterAll(async () => {
    await launched?.close();
  });

  it('is in the navigation of a reseller only', async () => {
    const plain = await createPartner();
    const page = await signInOwner(launched.browser, plain.partner.id);
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Usage and billing' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Clients' }).count()).toBe(0);
    await page.goto(`${e2eEnv().gatewayUrl}/console/clients`);
    await page.getByText('Only a reseller account manages clients.').waitFor();
    await page.context().close();
  });

  it('creates, funds, edits, suspends and resumes a client, shows its usage and manages its keys', async () => {
    const { partner, apiKey: resellerKey } = await createPartner({ balance_inr: 100, concurrency_limit: 10 });
    expect(
      (await adminApi(`/partners/${partner.id}`, { method: 'PATCH', body: { reseller: true } })).status,
    ).toBe(200);
    const page = await signInOwner(launched.browser, partner.id);
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('heading', { name: 'Clients', exact: true }).waitFor();
    await page.getByText('No clients yet.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Create: the API's message for a rate card below the platform's price shows at its field.
    const name = `Acme ${randomUUID().slice(0, 6)}`;
    const create = page.getByRole('form', { name: 'Create a client' });
    await create.getByLabel('Name').fill(name);
    await create.getByLabel('Contact email (optional)').fill('ops@acme.example');
    await create.getByLabel('Rate card, INR a minute (optional)').fill('1');
    await create.getByRole('button', { name: 'Create client' }).click();
    const rate = create.getByLabel('Rate card, INR a minute (optional)');
    await fieldMessage(page, rate, /price_per_minute_inr must be at least the platform's price/);
    expect(await rate.getAttribute('aria-invalid')).toBe('true');
    expect((await api('/clients', { key: resellerKey })).body.data.clients).toEqual([]);
    await rate.fill('6');
    await create.getByRole('button', { name: 'Create client' }).click();

    // The first key, once, with a copy button and the warning.
    const shown = page.getByRole('status').filter({ hasText: `The first API key of “${name}”` });
    await shown.getByText('Copy it now: it is shown only once.').waitFor();
    const firstKey = (await shown.getByTestId('client-key').textContent())!.trim();
    expect(firstKey).toMatch(/^rg_live_/);
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await shown.getByText('Copied', { exact: true }).waitFor();
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText: () => Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(firstKey);
    expect((await api('/agent', { key: firstKey })).status).toBe(200);
    const row = page.getByRole('row').filter({ hasText: name });
    for (const cell of ['active', '₹0.00', '₹6.00 / min', '5']) {
      await row.getByRole('cell', { name: cell, exact: true }).waitFor();
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('client-key').count()).toBe(0);
    const client = await clientOf(resellerKey, name);

    // Fund, after a confirmation naming the amount and the client.
    await row.getByRole('link', { name }).click();
    await page.getByRole('heading', { name, exact: true }).waitFor();
    const fund = page.getByRole('form', { name: 'Fund' });
    await fund.getByLabel('Amount, INR').fill('25');
    await fund.getByRole('button', { name: 'Fund…' }).click();
    await fund.getByText(`Move ₹25.00 from your balance to ${name}?`).waitFor();
    expect((await api('/billing/balance', { key: resellerKey })).body.data.balance_inr).toBe(100);
    // The first answer is lost on the way back (the transfer was made): the person is told, and confirming
    // again replays that transfer under the same Idempotency-Key instead of moving the money twice.
    const fundRoute = `**/clients/${client.id}/fund`;
    await page.route(fundRoute, async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });
    await fund.getByRole('button', { name: 'Confirm funding' }).click();
    await fund.getByText('The platform could not be reached').waitFor();
    await page.unroute(fundRoute);
    expect((await api('/billing/balance', { key: resellerKey })).body.data.balance_inr).toBe(75);
    await fund.getByRole('button', { name: 'Fund…' }).click();
    await fund.getByRole('button', { name: 'Confirm funding' }).click();
    await fund.getByText('Moved ₹25.00. Your balance is now ₹75.00.').waitFor();
    expect((await api('/billing/balance', { key: resellerKey })).body.data.balance_inr).toBe(75);
    await page.getByTestId('client-balance').getByText('₹25.00').waitFor();
    expect((await api('/billing/balance', { key: firstKey })).body.data.balance_inr).toBe(25);

    // Edit: a limit above the reseller's own is the API's message at that field; then saved.
    const edit = page.getByRole('form', { name: 'Details' });
    const limit = edit.getByLabel('Concurrency limit');
    await limit.fill('50');
    await edit.getByRole('button', { name: 'Save' }).click();
    await fieldMessage(page, limit, 'concurrency_limit must be at most your own, 10');
    expect(await limit.getAttribute('aria-invalid')).toBe('true');
    await limit.fill('3');
    await edit.getByLabel('Name').fill(`${name} Ltd`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Saved.').waitFor();
    await page.getByRole('heading', { name: `${name} Ltd`, exact: true }).waitFor();
    const edited = await api(`/clients/${client.id}`, { key: resellerKey });
    expect(edited.body.data).toMatchObject({
      name: `${name} Ltd`,
      concurrency_limit: 3,
      price_per_minute_inr: 6,
      email: 'ops@acme.example',
    });

    // Suspend (confirmed) stops the client's key; resume brings it back.
    await page.getByRole('button', { name: 'Suspend client' }).click();
    await page.getByText('suspended by you').waitFor();
    expect((await api('/agent', { key: firstKey })).status).toBe(403);
    await page.getByRole('button', { name: 'Resume client' }).click();
    await page.getByRole('button', { name: 'Suspend client' }).waitFor();
    expect((await api('/agent', { key: firstKey })).status).toBe(200);

    // Usage over the range chosen; a range the API refuses shows its message.
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage
      .getByTestId('client-usage')
      .getByText(/0 minutes · 0 calls · ₹0\.00 charged/)
      .waitFor();
    await usage.getByLabel('From').fill('2026-03-10');
    await usage.getByLabel('To').fill('2026-03-01');
    await usage.getByRole('alert').waitFor();
    await usage.getByLabel('To').fill('2026-03-20');
    await usage.getByTestId('client-usage').waitFor();

    // Keys: the first one listed (never the key itself); a new one shown once, then revoked: 401 at once.
    const keys = page.getByRole('region', { name: `API keys of ${name} Ltd` });
    await keys.getByRole('row').filter({ hasText: 'default' }).waitFor();
    expect(await keys.textContent()).not.toContain(firstKey);
    await keys.getByLabel('Key name').fill('ci');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const newKey = (await keys.getByTestId('client-key').textContent())!.trim();
    expect(newKey).toMatch(/^rg_live_/);
    expect((await api('/agent', { key: newKey })).status).toBe(200);
    const ciRow = keys.getByRole('row').filter({ has: page.getByRole('cell', { name: 'ci', exact: true }) });
    await ciRow.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await keys.getByRole('button', { name: 'I have stored it' }).click();
    await keys.getByRole('button', { name: 'Revoke ci' }).click();
    await ciRow.getByText(/^revoked /).waitFor();
    expect((await api('/agent', { key: newKey })).status).toBe(401);
    expect((await api('/agent', { key: firstKey })).status).toBe(200);

    // Back to the list: the changes are there.
    await page.getByRole('link', { name: '← All clients' }).click();
    const listed = page.getByRole('row').filter({ hasText: `${name} Ltd` });
    for (const cell of ['active', '₹25.00', '₹6.00 / min', '3']) {
      await listed.getByRole('cell', { name: cell, exact: true }).waitFor();
    }
    await page.context().close();
  });
});
