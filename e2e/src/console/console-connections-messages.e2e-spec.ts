// The console's Customer connections and Messages pages and the builder's SMS settings in a real browser
// (Debian's Chromium through playwright-core), through the real gateway: connectors are created and edited with
// forms (the client secret write-only) and listed by name, one in use by a function cannot be deleted (the API's
// reason shown); a customer is created and sent a connect link whose URL is shown, its connection listed by the
// connector's name and disconnected; an SMS is sent on the sandbox and followed in the history to delivered (an
// undelivered one with the carrier's error code), and a refresh that fails keeps the history and the next works;
// an agent is allowed to text from the builder and the API holds it; and the pages have no accessibility
// violations.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { workspaceRoot } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';
import { a11yViolations, launchBrowser, LaunchedBrowser, watchNetwork } from '../../support/browser';
import { VOICE_ID } from '../calls/call-fixtures';
import { inviteUser } from './console-fixtures';

// Tests read response bodies freely; a mistyped read fails the assertion anyway.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';

describe('the console’s customer connections, messages and the agent’s SMS settings in a browser', () => {
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;
  let apiKey: string;
  let agentId: string;
  let customerId: string;
  const consoleUrl = (path = '') => `${e2eEnv().gatewayUrl}/console${path}`;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const get = (path: string) => api(path, { key: apiKey });
  const connectorsTable = () => page.getByRole('table', { name: 'Connectors' });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    launched = await launchBrowser();
    const created = await createPartner({ name: `Connections Co ${Date.now()}`, balance_inr: 100 });
    apiKey = created.apiKey;
    const link = await inviteUser(created.partner.id, {
      email: `connections-${Date.now()}@example.com`,
      name: 'Owner',
      role: 'owner',
    });
    context = await launched.browser.newContext();
    page = await context.newPage();
    // Deleting and disconnecting ask first: the person says yes.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
  });

  it('creates and edits connectors with forms, lists them by name and tells why one in use stays', async () => {
    await page.getByRole('link', { name: 'Customer connections' }).click();
    await page.getByRole('heading', { name: 'Customer connections' }).waitFor();
    await connectorsTable().getByText('No connectors yet.', { exact: false }).waitFor();
    await page.getByText('No customers yet.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'New connector' }).click();
    // Nothing filled in: told at the fields before anything is sent.
    await page.getByRole('button', { name: 'Create connector' }).click();
    await page.getByText('Some fields need attention').waitFor();
    // At the field (and in the summary above the form).
    await page
      .getByRole('alert')
      .getByText('The authorization URL is required', { exact: true })
      .first()
      .waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Acme Calendar');
    await page.getByLabel('Authorization URL').fill('https://auth.acme.example/oauth/authorize');
    await page.getByLabel('Token URL').fill('https://auth.acme.example/oauth/token');
    await page.getByLabel('Scopes').fill('calendar.read calendar.write');
    await page.getByLabel('Client id').fill('acme-client-1');
    await page.getByLabel('Client secret').fill('acme-secret-0001');
    await page.getByLabel('Token endpoint authentication').selectOption('client_secret_post');
    await page.getByRole('button', { name: 'Add a parameter' }).click();
    await page.getByLabel('Parameter 1', { exact: true }).fill('access_type');
    await page.getByLabel('Value 1', { exact: true }).fill('offline');
    await shot('connector-form');
    await page.getByRole('button', { name: 'Create connector' }).click();
    await page.getByRole('status').getByText('Acme Calendar was created', { exact: false }).waitFor();
    const row = connectorsTable().getByRole('row', { name: /Acme Calendar/ });
    await row.getByText('OAuth 2.0 at auth.acme.example').waitFor();
    expect(await row.getByRole('cell', { name: 'Set', exact: true }).count()).toBe(1);
    const listed = (await get('/connectors')).body.data.connectors;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      name: 'Acme Calendar',
      type: 'oauth2',
      oauth2: {
        authorize_url: 'https://auth.acme.example/oauth/authorize',
        token_url: 'https://auth.acme.example/oauth/token',
        revocation_url: null,
        scopes: ['calendar.read', 'calendar.write'],
        client_id: 'acme-client-1',
        client_secret_set: true,
        token_auth_method: 'client_secret_post',
        authorize_params: { access_type: 'offline' },
      },
    });
    const calendarId = listed[0].id as string;
    // The page never shows the secret.
    expect(await page.content()).not.toContain('acme-secret-0001');

    // An edit keeps the stored secret unless a new one is typed.
    await page.getByRole('button', { name: 'Edit Acme Calendar' }).click();
    await page.getByText('A secret is set (never shown)', { exact: false }).waitFor();
    await page.getByLabel('Scopes').fill('calendar.read');
    await page.getByRole('button', { name: 'Save connector' }).click();
    await page.getByRole('status').getByText('Acme Calendar was saved', { exact: false }).waitFor();
    expect((await get(`/connectors/${calendarId}`)).body.data.oauth2).toMatchObject({
      scopes: ['calendar.read'],
      revocation_url: null,
      client_secret_set: true,
    });
    // A new revocation URL is a new place the secret goes: the form asks for the secret again, at its field.
    await page.getByRole('button', { name: 'Edit Acme Calendar' }).click();
    await page.getByLabel('Revocation URL (optional)').fill('https://auth.acme.example/oauth/revoke');
    await page.getByRole('button', { name: 'Save connector' }).click();
    const secretField = page.getByLabel('New client secret');
    await page.getByText('requires client_secret again', { exact: false }).first().waitFor();
    expect(await secretField.getAttribute('aria-invalid')).toBe('true');
    expect((await get(`/connectors/${calendarId}`)).body.data.oauth2.revocation_url).toBeNull();
    await secretField.fill('acme-secret-0002');
    await page.getByRole('button', { name: 'Save connector' }).click();
    await page.getByRole('status').getByText('Acme Calendar was saved', { exact: false }).waitFor();
    expect((await get(`/connectors/${calendarId}`)).body.data.oauth2).toMatchObject({
      scopes: ['calendar.read'],
      revocation_url: 'https://auth.acme.example/oauth/revoke',
      client_secret_set: true,
    });
    expect(await page.content()).not.toContain('acme-secret-0002');

    // An API key connector: where the key goes.
    await page.getByRole('button', { name: 'New connector' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Acme CRM');
    await page.getByRole('radio', { name: 'API key' }).check();
    await page.getByLabel('The key goes in').selectOption('header');
    await page.getByLabel('Header name').fill('X-Api-Key');
    await page.getByLabel('Prefix (optional)').fill('');
    await page.getByRole('button', { name: 'Create connector' }).click();
    await connectorsTable().getByText('API key in the header X-Api-Key').waitFor();
    const crm = (await get('/connectors')).body.data.connectors.find((c: Any) => c.name === 'Acme CRM');
    expect(crm.api_key).toEqual({ in: 'header', name: 'X-Api-Key', prefix: '' });

    // A function authenticating with it: the API refuses the delete and the page says why.
    const fn = await api('/custom-functions', {
      key: apiKey,
      body: {
        name: 'crm_lookup',
        description: 'Looks the caller up in the CRM',
        url: 'https://crm.acme.example/lookup',
        auth: { type: 'customer_connection', connector_id: crm.id },
      },
    });
    expect(fn.status).toBe(200);
    await page.getByRole('button', { name: 'Delete Acme CRM' }).click();
    await page
      .getByRole('alert')
      .getByText('The connector is used by custom functions (crm_lookup)', { exact: false })
      .waitFor();
    await shot('connector-in-use');
    expect((await get(`/connectors/${crm.id}`)).status).toBe(200);
  }, 60_000);

  it('creates a customer, makes a connect link shown with its URL, lists and disconnects the connection', async () => {
    await page.getByRole('button', { name: 'New customer' }).click();
    await page.getByLabel('Customer name').fill('Globex');
    await page.getByLabel('Your id for the customer').fill('globex-1');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('status').getByText('Globex was created.').waitFor();
    const customers = (await get('/customers')).body.data.customers;
    expect(customers).toMatchObject([{ name: 'Globex', external_id: 'globex-1', status: 'ACTIVE' }]);
    customerId = customers[0].id;

    // The new customer's connections are open: no connection yet, a link for a connector chosen by name.
    const globex = page.getByRole('region', { name: 'Customer Globex' });
    await globex.getByText('Globex has no connections yet.').waitFor();
    await globex.getByLabel('Connector', { exact: true }).selectOption({ label: 'Acme Calendar' });
    await globex.getByRole('button', { name: 'Create connect link' }).click();
    const url = (await globex.getByTestId('connect-url').textContent())!.trim();
    expect(url).toMatch(/\/connect\/[A-Za-z0-9_-]{20,}$/);
    await globex.getByText('It works once, expires', { exact: false }).waitFor();
    const connections = globex.getByRole('table', { name: 'Connections of Globex' });
    const pending = connections.getByRole('row', { name: /Acme Calendar/ });
    await pending.getByText('pending', { exact: true }).waitFor();
    await shot('customer-connect-link');
    const stored = (await get(`/customers/${customerId}/connections`)).body.data.connections;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ connector_type: 'oauth2', status: 'pending' });
    // The link sends the customer to the connector's sign-in (a host that does not exist: the request is seen).
    const connectPage = await context.newPage();
    const signIn = connectPage.waitForRequest((r) => r.url().startsWith('https://auth.acme.example/'));
    await connectPage.goto(url).catch(() => undefined);
    const authorize = new URL((await signIn).url());
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://auth.acme.example/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe('acme-client-1');
    expect(authorize.searchParams.get('access_type')).toBe('offline');
    await connectPage.close();

    await globex.getByRole('button', { name: 'Disconnect Globex from Acme Calendar' }).click();
    await globex.getByText('Disconnected from Acme Calendar.').waitFor();
    await globex.getByText('Globex has no connections yet.').waitFor();
    expect((await get(`/customers/${customerId}/connections`)).body.data.connections).toEqual([]);
  }, 60_000);

  it('sends an SMS from the account’s number and follows it to delivered in the history', async () => {
    const numbers = (await get('/phone-numbers')).body.data.phone_numbers;
    const sandbox = numbers.find((n: Any) => n.provider === 'sandbox').number as string;
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages', exact: true }).waitFor();
    await page.getByText('No messages yet.', { exact: false }).waitFor();
    // Told at the field before sending.
    await page.getByLabel('To', { exact: true }).fill('98765');
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Enter the number in international format', { exact: false }).first().waitFor();

    await page.getByLabel('To', { exact: true }).fill('+15550004242');
    await page.getByLabel('From', { exact: true }).selectOption(sandbox);
    await page.getByLabel('Message', { exact: true }).fill('Your table for two is booked for 8 pm.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('status').getByText('Message to +15550004242 queued', { exact: false }).waitFor();
    const history = page.getByRole('table', { name: 'Messages, newest first' });
    const row = history.getByRole('row', { name: /Your table for two/ });
    // The history follows the message on its way without a click.
    await row
      .getByTestId('message-status')
      .getByText('delivered', { exact: true })
      .waitFor({ timeout: 30_000 });
    await row.getByText(sandbox).waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toMatch(/^Sent/);
    const listed = (await get('/messages?to=%2B15550004242')).body.data.messages;
    expect(listed).toMatchObject([
      { status: 'delivered', from: sandbox, body: 'Your table for two is booked for 8 pm.' },
    ]);

    // A handset the sandbox cannot reach: undelivered, with the carrier's error code.
    await page.getByLabel('To', { exact: true }).fill('+15550000013');
    await page.getByLabel('Message', { exact: true }).fill('Nobody gets this one.');
    await page.getByRole('button', { name: 'Send message' }).click();
    const failed = history.getByRole('row', { name: /Nobody gets this one/ });
    await failed.getByTestId('message-status').getByText('undelivered').waitFor({ timeout: 30_000 });
    await failed.getByText('Error 30003', { exact: false }).waitFor();
    await shot('messages');

    // A refresh that fails keeps the history and says so; the next one works.
    await page.route('**/console/api/v2/messages?*', (route) => route.abort());
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('The history could not be refreshed', { exact: false }).waitFor();
    await row.waitFor();
    await page.unroute('**/console/api/v2/messages?*');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page
      .getByText('The history could not be refreshed', { exact: false })
      .waitFor({ state: 'detached' });
    await row.getByText('delivered', { exact: true }).waitFor();
    // Filtered by status.
    await page.getByLabel('Status', { exact: true }).selectOption('undelivered');
    await history.getByRole('row', { name: /Your table for two/ }).waitFor({ state: 'detached' });
    await failed.waitFor();
  }, 90_000);

  it('lets the agent text during calls from the builder’s Tools, saved with the agent', async () => {
    const agent = await api('/agent', {
      key: apiKey,
      body: {
        agent_name: 'Texting Maya',
        prompt: 'You confirm bookings.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
      },
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.data.id;
    expect(agent.body.data).toMatchObject({ sms_enabled: false, sms_allowed_recipients: 'caller' });
    await page.goto(consoleUrl(`/agents/${agentId}?section=tools`));
    await page.getByRole('heading', { name: 'Texting Maya' }).waitFor();
    await page.getByLabel('The agent may send text messages during a call').check();
    const recipients = page.getByRole('group', { name: 'Who the agent may text' });
    expect(await recipients.getByRole('radio', { name: 'Only the person on the call' }).isChecked()).toBe(
      true,
    );
    await recipients.getByRole('radio', { name: 'Any number the person gives' }).check();
    await shot('builder-sms');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    expect((await get(`/agent/${agentId}`)).body.data).toMatchObject({
      sms_enabled: true,
      sms_allowed_recipients: 'any',
    });
    // Read back into the form.
    await page.reload();
    await page.getByRole('heading', { name: 'Texting Maya' }).waitFor();
    expect(await page.getByLabel('The agent may send text messages during a call').isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Any number the person gives' }).isChecked()).toBe(true);
  }, 60_000);

  it('has no accessibility violations on the new pages', async () => {
    const a11yContext = await launched.browser.newContext({ storageState: await context.storageState() });
    const a11y = await a11yContext.newPage();
    const network = watchNetwork(a11y);
    const found: string[] = [];
    const check = async (label: string) => {
      await network.quiet();
      const violations = (await a11yViolations(a11y)).map(
        (v) => `${v.id} ${v.impact} (${v.targets.join(', ')})`,
      );
      found.push(...violations.map((v) => `${label}: ${v}`));
    };
    await a11y.goto(consoleUrl('/connections'));
    await a11y.getByRole('table', { name: 'Connectors' }).waitFor();
    await check('/connections');
    // With a customer's connections, a connect link and the connector form open.
    await a11y.getByRole('button', { name: 'Show connections of Globex' }).click();
    await a11y.getByRole('button', { name: 'Create connect link' }).click();
    await a11y.getByTestId('connect-url').waitFor();
    await a11y.getByRole('button', { name: 'Edit Acme Calendar' }).click();
    await check('/connections with forms open');
    await a11y.goto(consoleUrl('/messages'));
    await a11y.getByRole('table', { name: 'Messages, newest first' }).waitFor();
    await check('/messages');
    await a11y.goto(consoleUrl(`/agents/${agentId}?section=tools`));
    await a11y.getByRole('group', { name: 'Who the agent may text' }).waitFor();
    await check('/agents/{id} Tools');
    expect(found).toEqual([]);
    await a11yContext.close();
  }, 90_000);
});
