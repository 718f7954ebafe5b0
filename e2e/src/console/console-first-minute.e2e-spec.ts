// The console's first minute in a real browser (Debian's Chromium through playwright-core), through the real
// gateway: an API key made for the web page's server with one choice (exactly the scope creating browser sessions
// needs, nothing more); a provider key check that cannot reach its server says so and names the host the operator
// must allow; the builder says, before saving, what calls will speak and hear with (a transcriber without its key
// says it needs one, with the way to add it); and none of these pages has serious accessibility violations.
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { workspaceRoot } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';
import { launchBrowser, LaunchedBrowser, seriousA11yViolations } from '../../support/browser';
import { VOICE_ID } from '../calls/call-fixtures';
import { inviteUser } from './console-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';
const WEB_SERVER = 'Web page server (browser sessions)';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the console’s first minute in a browser', () => {
  let launched: LaunchedBrowser;
  let page: Page;
  let apiKey: string;
  let agentId: string;
  const consoleUrl = (path = '') => `${e2eEnv().gatewayUrl}/console${path}`;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    launched = await launchBrowser();
    const created = await createPartner({ name: `First Minute Co ${Date.now()}`, balance_inr: 100 });
    apiKey = created.apiKey;
    const made = await api('/api/v2/agent', {
      key: apiKey,
      method: 'POST',
      body: {
        agent_name: 'First Minute Maya',
        prompt: 'You are Maya. You answer questions about orders.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
      },
    });
    expect([made.status, made.body.error]).toEqual([200, undefined]);
    agentId = made.body.data.id as string;
    const link = await inviteUser(created.partner.id, {
      email: `first-minute-${Date.now()}@example.com`,
      name: 'First Minute',
      role: 'owner',
    });
    const context = await launched.browser.newContext();
    page = await context.newPage();
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
  });

  it('makes a key for the web page’s server with one choice: it creates sessions and nothing else', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    const form = page.getByRole('form', { name: 'Create a key' });
    await form.getByLabel('Name').fill('web shop server');
    // Full access is the choice until another is made; the custom scopes are shown only for a custom key.
    expect(await form.getByRole('radio', { name: 'Full access' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox').count()).toBe(0);
    await form.getByRole('radio', { name: 'Custom: choose the scopes' }).check();
    await form.getByRole('checkbox', { name: /^calls:write/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await form.getByRole('radio', { name: WEB_SERVER }).check();
    await form.getByText('For the session route of your web page’s server').waitFor();
    expect(await form.getByRole('checkbox').count()).toBe(0);
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!.trim();
    expect(secret).toMatch(/^rg_live_/);
    await page
      .getByRole('row', { name: /web shop server/ })
      .getByRole('cell', { name: 'calls:write', exact: true })
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('keys-web-server-preset');

    // What the embed server route does, it may; the rest of the API it may not.
    const session = await api('/api/v2/browser-sessions', {
      key: secret,
      method: 'POST',
      body: { agent_id: agentId, allowed_origins: ['https://shop.example.com'] },
    });
    expect([session.status, session.body.error]).toEqual([200, undefined]);
    expect(session.body.data.connect_url).toEqual(expect.any(String));
    expect((await api('/api/v2/agent', { key: secret })).status).toBe(403);
  });

  it('says a provider this deployment cannot reach, and the host the operator must allow', async () => {
    const port = await closedPort();
    await page.getByRole('link', { name: 'Provider keys', exact: true }).click();
    await page.getByRole('heading', { name: 'Provider keys' }).waitFor();
    await page.getByLabel('Provider', { exact: true }).selectOption('custom');
    await page.getByLabel('Server URL').fill(`https://127.0.0.1:${port}/v1`);
    await page.getByRole('button', { name: 'Check and save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'cannot be reached from this deployment' });
    await alert.waitFor();
    const said = (await alert.textContent())!;
    expect(said).toContain(`outbound HTTPS access to 127.0.0.1:${port}`);
    expect(said).toContain('trying again will not help until then');
    expect(said).not.toMatch(/ECONNREFUSED|Try again in a moment/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('provider-keys-unreachable');
    expect(
      (await api('/api/v2/provider-credentials', { key: apiKey })).body.data.provider_credentials,
    ).toEqual([]);
  });

  it('says what calls will speak and hear with before saving, and a transcriber without its key', async () => {
    await page.goto(consoleUrl(`/agents/${agentId}`));
    await page.getByRole('heading', { name: 'First Minute Maya' }).waitFor();
    await page.getByRole('tab', { name: /^Voice/ }).click();
    const speaks = page.getByTestId('voice-runs-on');
    // The agent's catalog voice (Azure Speech) has no key anywhere on this deployment: said, with the way to add one.
    await speaks
      .getByText(
        'Azure Speech needs a key: until you add one in Provider keys, calls speak Neerja’s lines with the ' +
          'deployment’s stand-in voice (not the provider’s own).',
        { exact: false },
      )
      .waitFor();
    await speaks.getByRole('link', { name: 'Add your Azure Speech key on the Provider keys page' }).waitFor();
    await page.getByRole('radio', { name: /^Offline development voice — English \(female\)/ }).check();
    await speaks
      .getByText(
        /^Calls will speak with Offline development voice — English \(female\), the offline engine’s own voice/,
      )
      .waitFor();

    await page.getByRole('tab', { name: /^Transcriber/ }).click();
    const hears = page.getByTestId('transcriber-runs-on');
    await hears.getByText(/^Calls will hear with the deployment’s default transcriber/).waitFor();
    await page.getByLabel('Transcriber: provider', { exact: true }).selectOption('deepgram');
    await page.getByLabel('Transcriber: model', { exact: true }).fill('nova-3');
    await hears
      .getByText(
        'Deepgram needs a key: until you add one in Provider keys, calls hear with the deployment’s default ' +
          'transcriber instead.',
        { exact: false },
      )
      .waitFor();
    const add = hears.getByRole('link', { name: 'Add your Deepgram key on the Provider keys page' });
    expect(await add.getAttribute('href')).toBe('/console/provider-keys');
    await page.getByLabel('Fallback transcriber: provider', { exact: true }).selectOption('offline');
    await hears.getByText(/^If it fails: the offline development recogniser/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('agent-transcriber-runs-on');
  });
});
