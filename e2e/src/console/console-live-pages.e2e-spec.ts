// The console's live pages in a real browser (Debian's Chromium with a fake microphone), on a platform of the
// spec's own whose media runs at wall speed (a browser plays audio in real time): a phone call's page follows the
// call without a reload, by push when the platform sends snapshots and by a slow reload when it cannot; the
// agent's Talk panel holds a conversation with the microphone, warning (with where to fix it) that this platform's
// offline recogniser cannot understand a person; its scripted test types the caller's line, which has the agent call
// a partner function (a local fake server), shown with its arguments and outcome, and a slow typist is never asked
// whether anyone is there, while a line about a function (not naming it) calls it too; the Calls list shows phone calls and web sessions
// under All and filters them by channel; the Embed page fills the snippets with the agent; and none of these
// pages has serious accessibility violations. Screenshots go to tmp/e2e-artifacts/console/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BACKEND_SERVICES, workspaceRoot } from '@vap/testing';
import { adminApi } from '../../support';
import { startFunctionServer, type FunctionServer } from '../agents/function-server';
import {
  launchBrowser,
  seriousA11yViolations,
  watchNetwork,
  writeSpokenWav,
  type LaunchedBrowser,
  type SpokenWav,
} from '../../support/browser';
import { VoiceWorld } from '../voice/voice-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';
const INTRO = 'Hello, this is Maya from Acme.';
/** What the fake microphone says (the offline recogniser reads the platform's own offline speech only). */
const SAID = 'I would like to book an appointment.';
const AGENT_NAME = 'Live Console Maya';
/** What the offline model answers with the agent's check_order function (docs/voice.md, partner functions). */
const ASKS_FOR_ORDER = 'Please check order, order number is 42.';
const CHECK_ORDER = {
  name: 'check_order',
  description: 'Looks up where an order is by its number',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'integer', description: 'The order number' } },
    required: ['order_number'],
    additionalProperties: false,
  },
};

/** A function the caller's line need not name: the offline model matches its description and fills the number. */
const LOOKUP_ORDER = {
  name: 'lookup_order',
  description: 'Look up an order by its number',
  parameters: {
    type: 'object',
    properties: { order_number: { type: 'string', description: 'The order number' } },
    required: ['order_number'],
    additionalProperties: false,
  },
};
const ASKS_ABOUT_ORDER = 'Where is my order 12345?';

describe('the console’s live pages in a browser', () => {
  let world: VoiceWorld;
  let launched: LaunchedBrowser;
  let browser: Browser;
  let mic: SpokenWav;
  let functions: FunctionServer;
  let owner: BrowserContext;
  let page: Page;
  let agentId: string;
  let callId: string;
  let webSessionId: string;
  const consoleUrl = (path = '') => `${world.gateway}/console${path}`;
  const shot = (target: Page, name: string) =>
    target.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await VoiceWorld.start({
      name: 'console_live',
      // The console's pages read every service.
      services: BACKEND_SERVICES,
      // The platform's offline model answers: what a partner's agent does with no model configured.
      providers: { llm: false },
      env: {
        MEDIA_TIME_SCALE: '1',
        BROWSER_SESSION_TOKEN_TTL_MS: '20000',
        // The partner's function server below listens on loopback, with the run's test certificate.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: process.env.E2E_TLS_CA ?? '',
      },
    });
    // Looped: 4 s of silence (the intro plays), the caller's line, 3 s of silence.
    mic = await writeSpokenWav(SAID, 3000, 4000);
    functions = await startFunctionServer();
    functions.answer('/orders', { status: 200, body: JSON.stringify({ status: 'shipped', eta: 'Friday' }) });
    launched = await launchBrowser({ micWav: mic.path });
    browser = launched.browser;
    const agent = await world.agent({ agent_name: AGENT_NAME, intro_message: INTRO, enable_recording: true });
    agentId = agent.id;

    // The world's partner (the only one of this platform) invites an owner, who signs in.
    const partners = await adminApi('/partners', { baseUrl: world.gateway });
    const partnerId = partners.body.data.partners[0].id as string;
    const invited = await adminApi(`/partners/${partnerId}/users`, {
      method: 'POST',
      baseUrl: world.gateway,
      body: { email: `live-${Date.now()}@example.com`, name: 'Live Owner', role: 'owner' },
    });
    expect(invited.status).toBe(200);
    owner = await browser.newContext();
    page = await owner.newPage();
    // The link on this platform's gateway (a link is the path alone without PUBLIC_BASE_URL).
    await page.goto(`${world.gateway}${new URL(invited.body.data.invitation_url, world.gateway).pathname}`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
  }, 240_000);

  afterAll(async () => {
    await launched?.close();
    mic?.remove();
    await functions?.close();
    await world?.stop();
  });

  const statusOf = (target: Page) => target.getByTestId('call-status').textContent();

  it('follows a phone call without a reload until it is completed, and never loses the page', async () => {
    const call = await world.dial('carrier_a', agentId, { timeScale: 1 });
    callId = call.callId;
    await page.goto(consoleUrl(`/calls/${callId}`));
    await page.getByRole('heading', { name: /^Call to / }).waitFor();
    expect(await statusOf(page)).toBe('in progress');
    // Followed by the platform's push (the live view), not by reloading.
    await page.getByRole('status').filter({ hasText: 'Updating live' }).waitFor();
    // The agent by name, linked to its page.
    await page.getByRole('link', { name: AGENT_NAME }).waitFor();
    // A mark in the page: gone if the page were loaded again.
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    await call.media.waitForHeard(INTRO, 30_000).catch(() => undefined);
    await world.complete(call, 3, 'callee');
    await page
      .getByTestId('call-status')
      .filter({ hasText: /^completed$/ })
      .waitFor({ timeout: 40_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // "completed completed" no more: an outcome is shown only when it says something else.
    expect(await page.getByText('Outcome:').count()).toBe(0);
    await page.locator('.timeline li.bot').first().waitFor({ timeout: 40_000 });
    // The live view's end: the page says nothing more will change.
    await page
      .getByRole('status')
      .filter({ hasText: /^Final/ })
      .waitFor({ timeout: 40_000 });
    await shot(page, 'live-call');
  }, 120_000);

  it('takes the platform’s pushed snapshots, and falls back to a slow reload with a notice when the push fails', async () => {
    const call = await world.dial('carrier_a', agentId, { timeScale: 1 });
    const dto = (await world.api(`/calls/${call.callId}`)).body.data;
    expect(dto.status).toBe('in_progress');
    const context = await browser.newContext({ storageState: await owner.storageState() });
    const pushed = await context.newPage();
    // The live route's contract: a snapshot (the call as GET /calls/{id} answers it) at once and on each change,
    // then `end` once it is final. Here the platform's answer is replaced by one the test writes.
    let asked = 0;
    await pushed.route(`**/console/api/live/calls/${call.callId}`, (route) => {
      asked += 1;
      const final = { ...dto, status: 'completed', disposition: 'voicemail' };
      return route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        body: `event: snapshot\ndata: ${JSON.stringify(dto)}\n\nevent: snapshot\ndata: ${JSON.stringify(final)}\n\nevent: end\ndata: {}\n\n`,
      });
    });
    await pushed.goto(consoleUrl(`/calls/${call.callId}`));
    // Well before the fallback's 10 s: the push did it.
    await pushed
      .getByTestId('call-status')
      .filter({ hasText: /^completed$/ })
      .waitFor({ timeout: 5000 });
    await pushed.getByText('Outcome:').waitFor();
    await pushed.getByText('voicemail', { exact: true }).waitFor();
    expect(asked).toBe(1);

    // A platform without the push (or refusing it): the page stays, says so, and reloads every 10 s.
    const refused = await context.newPage();
    await refused.route(`**/console/api/live/calls/${call.callId}`, (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'Not found' } }),
      }),
    );
    await refused.goto(consoleUrl(`/calls/${call.callId}`));
    await refused.getByText(/Live updates are unavailable/).waitFor({ timeout: 10_000 });
    expect(await statusOf(refused)).toBe('in progress');
    await world.complete(call, 2, 'callee');
    await refused
      .getByTestId('call-status')
      .filter({ hasText: /^completed$/ })
      .waitFor({ timeout: 30_000 });
    expect(await refused.getByRole('alert').count()).toBe(0);
    await context.close();
  }, 90_000);

  it('talks to the agent from its page with the microphone', async () => {
    await page.goto(consoleUrl(`/agents/${agentId}`));
    await page.getByRole('heading', { name: AGENT_NAME }).waitFor();
    await page.getByRole('button', { name: 'Talk', exact: true }).click();
    const conversation = page.getByRole('list', { name: `Conversation with ${AGENT_NAME}` });
    await conversation.locator('li.bot', { hasText: INTRO }).waitFor({ timeout: 30_000 });
    // This platform hears with the offline recogniser: the warning says so in the team's words, with where to fix
    // it; its Transcriber link selects the builder's Transcriber tab on this same page, the session going on.
    const warning = page.getByRole('alert').filter({ hasText: 'This agent will not understand you' });
    await warning.getByText(/offline development recogniser/).waitFor();
    expect(await warning.getByRole('link', { name: 'Provider keys page' }).getAttribute('href')).toBe(
      '/console/provider-keys',
    );
    await warning.getByRole('link', { name: 'Transcriber tab' }).click();
    expect(await page.getByRole('tab', { name: /^Transcriber/ }).getAttribute('aria-selected')).toBe('true');
    expect(page.url()).toContain(`/console/agents/${agentId}?section=transcriber`);
    // The fake microphone's line, heard (it comes round every 9 s or so; a loaded machine may garble a pass), and
    // final: while the caller is still heard the panel shows the words so far ("hearing…"), which a session
    // ended at that moment never records as a line.
    await conversation
      .locator('li.user', { hasText: SAID })
      .filter({ hasNotText: 'hearing…' })
      .first()
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Mute' }).click();
    await page.getByRole('button', { name: 'Unmute' }).waitFor();
    await shot(page, 'agent-talk');
    await page.getByRole('button', { name: 'End', exact: true }).click();
    await page.getByRole('link', { name: "Open the session's page" }).click();
    await page.getByRole('heading', { name: 'Web session' }).waitFor();
    webSessionId = page.url().split('/').pop()!;
    await page
      .getByTestId('call-status')
      .filter({ hasText: /^completed$/ })
      .waitFor({ timeout: 30_000 });
    await page.locator('.timeline li.user', { hasText: SAID }).first().waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: AGENT_NAME }).waitFor();
    // The post-call analysis the agent's defaults ask for, once processed: a summary quoting the caller.
    await page.locator('.call-summary', { hasText: /^The caller said: "/ }).waitFor({ timeout: 30_000 });
    await shot(page, 'web-session');
  }, 150_000);

  it('runs a scripted test: a typed caller line calls the partner function, shown with its arguments and outcome', async () => {
    const fn = await world.api('/custom-functions', {
      method: 'POST',
      body: { ...CHECK_ORDER, url: `${functions.url}/orders` },
    });
    expect(fn.status).toBe(200);
    const agent = await world.agent({ agent_name: 'Scripted Maya', intro_message: INTRO });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);

    await page.goto(consoleUrl(`/agents/${agent.id}`));
    await page.getByRole('heading', { name: 'Scripted Maya' }).waitFor();
    await page.getByRole('button', { name: 'Start scripted test' }).click();
    const conversation = page.getByRole('list', { name: 'Scripted conversation with Scripted Maya' });
    await conversation.locator('li.bot', { hasText: INTRO }).waitFor({ timeout: 30_000 });
    await page.getByLabel('The caller says').fill(ASKS_FOR_ORDER);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await conversation.locator('li.user', { hasText: ASKS_FOR_ORDER }).waitFor({ timeout: 15_000 });
    // The tool call as it happens: its arguments, then its outcome and latency.
    const tool = page.getByTestId('live-tool').filter({ hasText: 'check_order' });
    await tool.filter({ hasText: 'success' }).waitFor({ timeout: 30_000 });
    const row = (await tool.textContent())!;
    expect(row).toContain('"order_number":42');
    expect(row).toMatch(/\d+ ms/);
    // The partner's server was asked once, with the model's arguments.
    expect(functions.requests).toHaveLength(1);
    expect(JSON.parse(functions.requests[0].rawBody)).toMatchObject({ arguments: { order_number: 42 } });
    await conversation.locator('li.bot', { hasText: 'shipped' }).waitFor({ timeout: 30_000 });
    await shot(page, 'agent-scripted-test');
    await page.getByRole('button', { name: 'End test' }).click();
    await page.getByRole('link', { name: "Open the session's page" }).click();
    await page.getByRole('heading', { name: 'Web session' }).waitFor();
    const sessionId = page.url().split('/').pop()!;
    // The session's page links the tool call to its request and answer in the integration log.
    const log = page.getByRole('link', { name: /^Request and answer/ });
    await log.waitFor({ timeout: 30_000 });
    // Each tool row opens its own request and answer.
    expect(await log.getAttribute('href')).toMatch(/^\/console\/tools\/logs\/ilog_[0-9a-f-]{36}$/);
    // And every request of the conversation, below them.
    expect(
      await page.getByRole('link', { name: 'Every request of this conversation' }).getAttribute('href'),
    ).toBe(`/console/tools/logs?call_id=${sessionId}`);
  }, 120_000);

  it('lists phone calls and web sessions under All, and each alone by channel', async () => {
    await page.goto(consoleUrl('/calls'));
    await page.getByRole('heading', { name: 'Calls', exact: true }).waitFor();
    const phoneRows = page.locator('tbody tr[data-channel=phone]');
    const webRows = page.locator('tbody tr[data-channel=web]');
    await webRows.first().waitFor();
    expect(await phoneRows.count()).toBeGreaterThanOrEqual(2);
    expect(await webRows.count()).toBeGreaterThanOrEqual(1);
    // Newest first across both: the web session came after the calls.
    expect(await page.locator('tbody tr').first().getAttribute('data-channel')).toBe('web');
    // Agents by name (the scripted test's session is the newest, of its own agent).
    await webRows.first().getByRole('link', { name: 'Scripted Maya' }).waitFor();
    await webRows.getByRole('link', { name: AGENT_NAME }).first().waitFor();
    // Web in the channel column; the number column says the pages the session may run on, not Web again.
    expect(await webRows.first().getByRole('cell', { name: 'Web', exact: true }).count()).toBe(1);
    expect(await webRows.first().locator('td').nth(3).textContent()).not.toMatch(/^(Web|—)?$/);
    await shot(page, 'calls-all');

    await page.getByLabel('Channel').selectOption('phone');
    await page.locator('tbody tr[data-channel=web]').first().waitFor({ state: 'detached' });
    expect(await phoneRows.count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel('Channel').selectOption('web');
    await page.locator('tbody tr[data-channel=phone]').first().waitFor({ state: 'detached' });
    await webRows.first().waitFor();
    // The agent filter by name applies to both.
    await page.getByLabel('Channel').selectOption('all');
    await page.getByLabel('Agent').selectOption({ label: AGENT_NAME });
    await webRows.first().waitFor();
    await phoneRows.first().waitFor();
    await webRows.first().getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Web session' }).waitFor();
    expect(page.url()).toContain(`/calls/web/${webSessionId}`);
  });

  it('keeps a typed test going while the person types, and the offline model calls a function the line is about', async () => {
    const fn = await world.api('/custom-functions', {
      method: 'POST',
      body: { ...LOOKUP_ORDER, url: `${functions.url}/lookup` },
    });
    expect(fn.status).toBe(200);
    functions.answer('/lookup', { status: 200, body: JSON.stringify({ status: 'packed' }) });
    const agent = await world.agent({
      agent_name: 'Typing Maya',
      intro_message: INTRO,
      user_idle_enabled: true,
    });
    const attached = await world.api(`/agent/${agent.id}/custom-functions/${fn.body.data.id}`, {
      method: 'POST',
    });
    expect(attached.status).toBe(200);

    await page.goto(consoleUrl(`/agents/${agent.id}`));
    await page.getByRole('heading', { name: 'Typing Maya' }).waitFor();
    // Where the team tests, what the offline model can do.
    await page
      .getByTestId('offline-model-note')
      .getByText(/Where is my order 12345\?/)
      .waitFor();
    await page.getByRole('button', { name: 'Start scripted test' }).click();
    const conversation = page.getByRole('list', { name: 'Scripted conversation with Typing Maya' });
    await conversation.locator('li.bot', { hasText: INTRO }).waitFor({ timeout: 30_000 });
    // A slow typist: a key every 2 s for 24 s, longer than the reprompt and the goodbye after it (8 s each at
    // this platform's wall-speed media). The agent neither asks whether anyone is there nor ends the test.
    const line = page.getByLabel('The caller says');
    for (const key of 'Where is my'.split('')) {
      await line.press(key === ' ' ? 'Space' : key);
      await page.waitForTimeout(2000);
    }
    expect(await conversation.locator('li.bot', { hasText: 'Are you still there?' }).count()).toBe(0);
    await page.getByRole('button', { name: 'End test' }).waitFor();
    await line.fill(ASKS_ABOUT_ORDER);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const tool = page.getByTestId('live-tool').filter({ hasText: 'lookup_order' });
    await tool.filter({ hasText: 'success' }).waitFor({ timeout: 30_000 });
    expect((await tool.textContent())!).toContain('"order_number":"12345"');
    await conversation.locator('li.bot', { hasText: 'packed' }).waitFor({ timeout: 30_000 });
    await shot(page, 'agent-scripted-typing');
    await page.getByRole('button', { name: 'End test' }).click();
    await page.getByRole('button', { name: 'Start a new scripted test' }).waitFor();
  }, 120_000);

  it('shows the embed snippets with the agent and origins filled in', async () => {
    await page.goto(consoleUrl('/embed'));
    await page.getByRole('heading', { name: 'Embed on your site' }).waitFor();
    await page.getByLabel('Agent').selectOption({ label: AGENT_NAME });
    await page.getByLabel("Your pages' origins").fill('https://shop.example.com');
    const server = (await page.getByTestId('embed-server-snippet').textContent())!;
    expect(server).toContain(`const AGENT_ID = '${agentId}'`);
    expect(server).toContain('["https://shop.example.com"]');
    expect(server).toContain(`${world.gateway}`);
    expect(server).toContain('connect_url: body.data.connect_url');
    const snippet = (await page.getByTestId('embed-page-snippet').textContent())!;
    expect(snippet).toContain(`import { VoiceClient } from '${world.gateway}/sdk/voice-client.js';`);
    // A wrong origin is told at its field.
    await page.getByLabel("Your pages' origins").fill('https://shop.example.com/path');
    await page.getByText(/without a path/).waitFor();
    await page.getByRole('heading', { name: 'Try it here' }).waitFor();
    await shot(page, 'embed');
  });

  it('has no serious or critical accessibility violations on the live pages', async () => {
    const context = await browser.newContext({ storageState: await owner.storageState() });
    const a11y = await context.newPage();
    const network = watchNetwork(a11y);
    const found: string[] = [];
    const check = async (path: string, prepare?: () => Promise<void>) => {
      await a11y.goto(consoleUrl(path));
      await a11y.locator('main :is(h2, [role=alert])').first().waitFor();
      await network.quiet();
      await prepare?.();
      const violations = await seriousA11yViolations(a11y);
      found.push(...violations.map((v) => `${path}: ${v}`));
    };
    await check('/calls');
    await check(`/calls/${callId}`);
    await check(`/calls/web/${webSessionId}`);
    await check(`/agents/${agentId}`);
    // The Talk panel with its warning about the offline recogniser shown.
    await check(`/agents/${agentId}`, async () => {
      await a11y.getByRole('button', { name: 'Talk', exact: true }).click();
      await a11y.getByRole('alert').filter({ hasText: 'This agent will not understand you' }).waitFor({
        timeout: 30_000,
      });
    });
    await check('/embed', async () => {
      await a11y.getByLabel('Agent').selectOption({ label: AGENT_NAME });
      await a11y.getByLabel("Your pages' origins").fill('https://shop.example.com/path');
      await a11y.getByText(/without a path/).waitFor();
    });
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
