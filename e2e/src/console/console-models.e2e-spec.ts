// The console's model choices in a real browser (Debian's Chromium through playwright-core), through the real
// gateway: a person adds the team's own model server on Provider keys (checked with a signed request, its signing
// secret shown once with a copy button and never again), then gives an agent a model in the builder's Model
// section (a provider it has no key for shown as needing one, with the way to add it; the server's model by its
// id, a temperature, a fallback), saves, and finds the same choices after a reload and through the API; and
// neither page has serious or critical accessibility violations.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { workspaceRoot } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';
import { launchBrowser, LaunchedBrowser, seriousA11yViolations } from '../../support/browser';
import { FunctionServer, signatureValid, startFunctionServer } from '../agents/function-server';
import { VOICE_ID } from '../calls/call-fixtures';
import { inviteUser } from './console-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';
const SERVER_MODEL = 'acme/llama-70b';

describe('the console’s model choices in a browser', () => {
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;
  let apiKey: string;
  let server: FunctionServer;
  let signingSecret = '';
  const consoleUrl = (path = '') => `${e2eEnv().gatewayUrl}/console${path}`;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startFunctionServer();
    server.answer('/v1/models', { status: 200, body: '{"object":"list","data":[]}' });
    launched = await launchBrowser();
    const created = await createPartner({ name: `Models Co ${Date.now()}`, balance_inr: 100 });
    apiKey = created.apiKey;
    const link = await inviteUser(created.partner.id, {
      email: `models-${Date.now()}@example.com`,
      name: 'Models',
      role: 'owner',
    });
    context = await launched.browser.newContext();
    page = await context.newPage();
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });

  it('adds the team’s model server, showing its signing secret once', async () => {
    await page.getByRole('link', { name: 'Provider keys' }).click();
    await page.getByRole('heading', { name: 'Provider keys' }).waitFor();
    const provider = page.getByLabel('Provider', { exact: true });
    // Model providers are offered beside the speech ones, each saying what its key serves.
    await provider.locator('option', { hasText: 'Anthropic (models)' }).waitFor({ state: 'attached' });
    await provider
      .locator('option', { hasText: 'OpenAI (speech and models)' })
      .waitFor({ state: 'attached' });
    await provider.selectOption('custom');
    await page.getByLabel('Server URL').fill(`${server.url}/v1`);
    const checks = server.requests.length;
    await page.getByRole('button', { name: 'Check and save' }).click();

    const secretCard = page.getByRole('region', { name: "Your model server's signing secret" });
    await secretCard.waitFor();
    signingSecret = (await secretCard.locator('code').filter({ hasText: 'mssec_' }).textContent()) ?? '';
    expect(signingSecret).toMatch(/^mssec_/);
    await secretCard.getByRole('button', { name: 'Copy the signing secret' }).waitFor();
    // The check went to the server, signed with that secret.
    const [check] = server.requests.slice(checks);
    expect(check.url).toBe('/v1/models');
    expect(signatureValid(check, signingSecret)).toBe(true);
    const row = page.getByRole('row', { name: /Your model server/ });
    await row.getByText('models', { exact: true }).waitFor();
    await row.getByText(`${server.url}/v1`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('provider-keys-model-server');

    await secretCard.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByRole('row', { name: /Your model server/ }).waitFor();
    expect(await page.content()).not.toContain(signingSecret);
    const stored = (await api('/api/v2/provider-credentials', { key: apiKey })).body.data
      .provider_credentials;
    expect(stored).toEqual([
      expect.objectContaining({ provider: 'custom', base_url: `${server.url}/v1`, used_for: ['models'] }),
    ]);
    expect(JSON.stringify(stored)).not.toContain(signingSecret);
  });

  it('gives an agent a model, its parameters and a fallback in the builder', async () => {
    const name = `Model Maya ${Date.now()}`;
    const made = await api('/api/v2/agent', {
      key: apiKey,
      method: 'POST',
      body: {
        agent_name: name,
        prompt: 'You are Maya. You answer questions about orders.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
      },
    });
    expect([made.status, made.body.error]).toEqual([200, undefined]);
    const agentId = made.body.data.id as string;
    await page.goto(consoleUrl(`/agents/${agentId}`));
    await page.getByRole('heading', { name }).waitFor();

    const provider = page.getByLabel('Model provider');
    // A provider the account has no key for: offered as needing one, with the way to add it.
    await provider.selectOption('anthropic');
    await page.getByText('needs a key for Anthropic', { exact: false }).first().waitFor();
    await page.getByRole('link', { name: 'Add your Anthropic key on the Provider keys page' }).waitFor();

    await provider.selectOption('custom');
    await page.getByRole('radio', { name: 'Another model' }).check();
    await page.getByLabel('Model name').fill(SERVER_MODEL);
    await page.getByLabel('Temperature').fill('0.4');
    await page.getByRole('button', { name: 'Add a fallback model' }).click();
    await page.getByLabel('Fallback model 1', { exact: true }).selectOption('offline|offline');
    await page.getByTestId('runs-on').getByText(SERVER_MODEL, { exact: false }).first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('builder-model');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved', { exact: false }).first().waitFor();

    const agent = (await api(`/api/v2/agent/${agentId}`, { key: apiKey })).body.data;
    expect(agent.model).toMatchObject({ provider: 'custom', model: SERVER_MODEL, temperature: 0.4 });
    expect(agent.fallback_models).toEqual([
      expect.objectContaining({ provider: 'offline', model: 'offline' }),
    ]);

    // The builder reads the saved choices back.
    await page.reload();
    await page.getByRole('heading', { name }).waitFor();
    expect(await page.getByLabel('Model provider').inputValue()).toBe('custom');
    expect(await page.getByLabel('Model name').inputValue()).toBe(SERVER_MODEL);
    expect(await page.getByLabel('Temperature').inputValue()).toBe('0.4');
    expect(await page.getByLabel('Fallback model 1', { exact: true }).inputValue()).toBe('offline|offline');
  });
});
