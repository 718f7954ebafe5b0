// The Messages page's SMS destination policy card in a real browser (Debian's Chromium through playwright-core),
// through the real gateway: a person reads where the account texts (countries by name and code) and its caps; an
// owner changes the allowed countries and the daily cap with the form and the API holds them; a value the API
// would refuse is told at its field, in words the person can act on, and nothing is saved; a developer reads the
// policy without a way to change it; and the page has no serious or critical accessibility violations.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { workspaceRoot } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';
import { launchBrowser, LaunchedBrowser, seriousA11yViolations, watchNetwork } from '../../support/browser';
import { inviteUser } from './console-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';

/** Signs in with an invitation link in a new context. */
async function signIn(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password again').fill(PASSWORD);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.getByRole('heading', { name: 'Agents' }).waitFor();
  return page;
}

/** What a screen reader says after the field's name: the texts its aria-describedby names (hint, error). */
const descriptionOf = (field: Locator) =>
  field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe('the console’s SMS destination policy on the Messages page in a browser', () => {
  let launched: LaunchedBrowser;
  let page: Page;
  let apiKey: string;
  let partnerId: string;
  const stamp = Date.now();
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const policy = async () => {
    const res = await api('/messages/policy', { key: apiKey });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const card = () => page.getByRole('form', { name: 'Where your messages may go' });
  const summary = () => card().getByTestId('sms-policy-summary');
  const countries = () => card().getByLabel('Allowed countries', { exact: true });
  const perDay = () => card().getByLabel('Most messages per day', { exact: true });
  const save = () => card().getByRole('button', { name: 'Save message policy' }).click();
  const openMessages = async (p: Page) => {
    await p.goto(`${e2eEnv().gatewayUrl}/console/messages`);
    await p.getByRole('heading', { name: 'Messages', exact: true }).waitFor();
    await p
      .getByRole('form', { name: 'Where your messages may go' })
      .getByTestId('sms-policy-summary')
      .waitFor();
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    launched = await launchBrowser();
    const created = await createPartner({ name: `SMS Policy Co ${stamp}` });
    apiKey = created.apiKey;
    partnerId = created.partner.id;
    const link = await inviteUser(partnerId, {
      email: `sms-policy-owner-${stamp}@example.com`,
      name: 'Owner',
      role: 'owner',
    });
    page = await signIn(launched.browser, link);
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
  });

  it('shows where the account texts, the countries by name and code, and its caps', async () => {
    await openMessages(page);
    const before = await policy();
    // The default: the sandbox number's country and the platform's list.
    expect(before).toMatchObject({ allowed_countries: null, max_per_call: 3, sent_last_24_hours: 0 });
    expect(before.default_allowed_countries).toEqual(expect.arrayContaining(['IN', 'US']));
    await summary().getByText('India (IN)', { exact: false }).waitFor();
    const text = (await summary().textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('United States (US)');
    expect(text).toContain('the default');
    expect(text).toContain(`At most ${before.max_per_day} a day (0 in the last 24 hours)`);
    expect(text).toContain('3 per call');
    // The fields show what applies: no list of its own, no caps of its own.
    expect(await countries().inputValue()).toBe('');
    expect(await perDay().inputValue()).toBe('');
    expect(await descriptionOf(perDay())).toContain(String(before.max_per_day_limit));
  }, 60_000);

  it('an owner changes the allowed countries and the daily cap with the form, and the API holds them', async () => {
    await countries().fill('in, ae');
    await perDay().fill('200');
    await save();
    await card().getByRole('status').getByText('Saved', { exact: true }).waitFor();
    await summary().getByText('At most 200 a day', { exact: false }).waitFor();
    const text = (await summary().textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('United Arab Emirates (AE)');
    expect(text).toContain('India (IN)');
    expect(text).not.toContain('United States');
    expect(text).not.toContain('the default');
    await shot('sms-policy-saved');
    expect(await policy()).toMatchObject({
      allowed_countries: ['AE', 'IN'],
      max_per_day: 200,
      max_per_call: 3,
    });

    // Read back into the form after a reload.
    await openMessages(page);
    expect(await countries().inputValue()).toBe('AE, IN');
    expect(await perDay().inputValue()).toBe('200');
  }, 60_000);

  it('tells an invalid value at its field in words the person can act on, and saves nothing', async () => {
    const limit = (await policy()).max_per_day_limit as number;
    await perDay().fill(String(limit + 1));
    await save();
    const dayError = card()
      .getByRole('alert')
      .getByText(`The daily cap must be a whole number from 1 to ${limit}, or empty`, { exact: false });
    await dayError.first().waitFor();
    expect(await perDay().getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(perDay())).toContain(
      `The daily cap must be a whole number from 1 to ${limit}`,
    );
    expect(await card().getByRole('status').textContent()).not.toContain('Saved');

    // A country's name instead of its code: the code to write instead, at the field.
    await perDay().fill('150');
    await countries().fill('AE, India');
    await save();
    await card().getByRole('alert').getByText('write its code, IN', { exact: false }).first().waitFor();
    expect(await countries().getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(countries())).toContain('“India” is a country’s name: write its code, IN');
    expect(await perDay().getAttribute('aria-invalid')).toBe('false');
    await shot('sms-policy-invalid');
    expect(await policy()).toMatchObject({ allowed_countries: ['AE', 'IN'], max_per_day: 200 });

    // A code no country has: the API refuses it, and says so at the field too.
    await countries().fill('AE, ZZ');
    await save();
    await card().getByRole('alert').getByText('Not a country the platform knows: ZZ').first().waitFor();
    expect(await countries().getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(countries())).toContain('ZZ');
    expect(await policy()).toMatchObject({ allowed_countries: ['AE', 'IN'], max_per_day: 200 });

    // Corrected: saved, the errors gone.
    await countries().fill('AE IN');
    await save();
    await card().getByRole('status').getByText('Saved', { exact: true }).waitFor();
    expect(await card().getByRole('alert').count()).toBe(0);
    expect(await countries().getAttribute('aria-invalid')).toBe('false');
    expect(await policy()).toMatchObject({ allowed_countries: ['AE', 'IN'], max_per_day: 150 });
  }, 60_000);

  it('shows a developer the policy without a way to change it', async () => {
    const link = await inviteUser(partnerId, {
      email: `sms-policy-developer-${stamp}@example.com`,
      name: 'Developer',
      role: 'developer',
    });
    const developer = await signIn(launched.browser, link);
    await openMessages(developer);
    const theirCard = developer.getByRole('form', { name: 'Where your messages may go' });
    await theirCard.getByText('Owners and admins change where messages may go').waitFor();
    expect(await theirCard.getByRole('button', { name: 'Save message policy' }).count()).toBe(0);
    expect(await theirCard.getByLabel('Allowed countries', { exact: true }).isDisabled()).toBe(true);
    expect(await theirCard.getByLabel('Allowed countries', { exact: true }).inputValue()).toBe('AE, IN');
    await developer.context().close();
  }, 60_000);

  it('has no serious or critical accessibility violations on the Messages page, errors shown or not', async () => {
    const network = watchNetwork(page);
    await openMessages(page);
    await network.quiet();
    const found = (await seriousA11yViolations(page)).map((v) => `/messages: ${v}`);
    await perDay().fill('0');
    await countries().fill('India');
    await save();
    await card().getByRole('alert').first().waitFor();
    found.push(...(await seriousA11yViolations(page)).map((v) => `/messages with errors: ${v}`));
    expect(found).toEqual([]);
  }, 60_000);
});
