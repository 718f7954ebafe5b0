// The console's ten-minute test, as a new partner team lives it in a real browser (Debian's Chromium, a fake
// microphone playing a WAV): from the operator's invitation link, sign in, build an agent, give it an HTTPS order
// lookup of the team's own (a local service whose certificate a local CA signed), test the tool from the tools
// page, in a scripted test and by talking with the microphone, find the web sessions among the calls with the
// tool's request and answer, take the embed snippets for the team's web page and run them with a new API key,
// and end with a curl with that key. The script makes no API call itself: only the operator's invitation
// (the operator's part) and the final curl (the person's terminal) leave the browser. A person's pace is counted
// (150 ms per keystroke, 1 s before every click, added to the machine's time rather than slept: Person); each
// step's seconds are printed and the total must be under ten minutes. Every page is photographed
// (tmp/e2e-artifacts/ten-minute/) and checked with axe-core.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { freePort, waitFor, workspaceRoot } from '@vap/testing';
import { adminApi } from '../../support';
import { launchBrowser, writeSpokenWav, type LaunchedBrowser, type SpokenWav } from '../../support/browser';
import { startOwnPlatform, type OwnPlatform } from '../../support/own-platform';
import { Person } from '../../support/person';
import { startOrderService, type OrderService } from './order-service';

const run = promisify(execFile);
const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'ten-minute');
const PASSWORD = 'orders-team-2026!';
const AGENT = 'Order desk';
const FUNCTION = 'lookup_order';
/** What the caller says: the offline model calls a function its line names, with the rest as the argument. */
const CALLER_LINE = 'lookup order 12345';
const TEN_MINUTES_S = 600;

/** What the person copied (the specs compile without the DOM library, so the page's clipboard is typed here). */
function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
}

describe('the console’s ten-minute test', () => {
  let own: OwnPlatform;
  let gateway: string;
  let launched: LaunchedBrowser;
  let browser: Browser;
  let mic: SpokenWav;
  let orders: OrderService;
  let shopServer: ChildProcess | undefined;
  const shopDir = join(workspaceRoot(), 'tmp', `ten-minute-shop-${process.pid}`);

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const ca = process.env.E2E_TLS_CA;
    if (!ca)
      throw new Error('E2E_TLS_CA is not set: the e2e setup needs openssl for the local HTTPS service');
    own = await startOwnPlatform({
      name: 'ten_minute',
      env: {
        // A browser plays and records audio in real time.
        MEDIA_TIME_SCALE: '1',
        // The team's service is on this machine, with a certificate of a local CA (docs/custom-functions.md,
        // "Reaching your endpoint in development").
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: ca,
      },
    });
    gateway = own.platform.gatewayUrl;
    orders = await startOrderService();
    // Looped: 4 s of silence (the agent's greeting plays), the caller's line, 4 s of silence.
    mic = await writeSpokenWav(CALLER_LINE, 4000, 4000);
    launched = await launchBrowser({ micWav: mic.path });
    browser = launched.browser;
  }, 180_000);

  afterAll(async () => {
    shopServer?.kill();
    await launched?.close();
    mic?.remove();
    await orders?.close();
    await own?.stop();
    rmSync(shopDir, { recursive: true, force: true });
  });

  it('takes a new team from the invitation to a working agent on its web page and a curl, in ten minutes', async () => {
    // The operator's part: an account and an invitation for its owner.
    const partner = await adminApi('/partners', {
      method: 'POST',
      baseUrl: gateway,
      body: { name: 'Acme Orders', balance_inr: 500 },
    });
    expect(partner.status).toBe(200);
    const invited = await adminApi(`/partners/${partner.body.data.partner.id}/users`, {
      method: 'POST',
      baseUrl: gateway,
      body: { email: `owner-${Date.now()}@acme.example`, name: 'Olu Owner', role: 'owner' },
    });
    expect(invited.status).toBe(200);
    const invitation = invited.body.data.invitation_url as string;

    const context = await browser.newContext({
      permissions: ['microphone', 'clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const person = new Person(page, ARTIFACTS);
    const main = page.locator('#main');

    await person.step('sign in from the invitation', async () => {
      await page.goto(invitation);
      await person.seen('invitation');
      await person.type(page.getByLabel('Password', { exact: true }), PASSWORD);
      await person.type(page.getByLabel('Password again'), PASSWORD);
      await person.click(page.getByRole('button', { name: /sign in/i }));
      await page.getByRole('heading', { name: 'Agents', exact: true }).waitFor();
      // The static loading line is gone once the console is up.
      expect(await page.getByText('Loading the console').count()).toBe(0);
      await person.seen('agents');
    });

    let agentUrl = '';
    await person.step('build the agent', async () => {
      await person.click(page.getByRole('link', { name: 'New agent' }));
      await person.type(page.getByLabel('Name', { exact: true }), AGENT);
      await person.type(
        page.getByLabel('Prompt', { exact: true }),
        'You are the order desk of Acme. Look orders up and say when they arrive.',
      );
      await person.type(
        page.getByLabel('Intro message', { exact: true }),
        'Hi, this is the Acme order desk.',
      );
      await person.seen('agent-new');
      // The voice, found by language among the catalog's and heard before it is chosen.
      await person.click(page.getByRole('tab', { name: /^Voice/ }));
      await person.select(page.getByLabel('Language', { exact: true }), 'en-IN');
      await person.click(page.getByRole('button', { name: 'Play Neerja' }));
      await page.getByLabel('Preview of Neerja').waitFor({ timeout: 30_000 });
      await person.check(page.getByRole('radio', { name: 'Neerja' }));
      await person.seen('agent-voice');
      // The first create right after signing in works (no stale session token).
      await person.click(page.getByRole('button', { name: 'Create agent' }));
      await page.getByRole('heading', { name: AGENT }).waitFor();
      agentUrl = page.url();
      await person.seen('agent');
    });

    let secret = '';
    await person.step('give it the order lookup tool', async () => {
      await person.click(page.getByRole('link', { name: 'Tools', exact: true }));
      await page.getByRole('heading', { name: 'Tools', exact: true }).waitFor();
      await person.seen('tools');
      await person.click(page.getByRole('link', { name: 'New function' }));
      await person.type(page.getByLabel('Name', { exact: true }), FUNCTION);
      await person.type(page.getByLabel('Description', { exact: true }), 'Find an order by its number');
      await person.type(page.getByLabel('HTTPS URL'), orders.url);
      if ((await page.getByLabel('Argument 1 name').count()) === 0)
        await person.click(page.getByRole('button', { name: 'Add an argument' }));
      await person.type(page.getByLabel('Argument 1 name'), 'order_number');
      await person.seen('function-new');
      await person.click(page.getByRole('button', { name: 'Create function' }));
      // The signing secret is shown once: the team puts it in its service's configuration.
      const shown = page.getByTestId('signing-secret');
      await shown.waitFor();
      secret = (await shown.textContent())!.trim();
      expect(secret).toMatch(/^fnsec_/);
      orders.useSecret(secret);
      await person.seen('function-created');
    });

    await person.step('test the tool', async () => {
      await person.type(page.getByLabel(/^order_number/), '12345');
      await person.click(page.getByRole('button', { name: 'Send test request' }));
      const result = page.locator('section.test-result');
      await result.waitFor({ timeout: 30_000 });
      await result.getByText('200').first().waitFor();
      await result.getByText('shipped').first().waitFor();
      expect(await result.textContent()).not.toContain(secret);
      expect(orders.answered).toContainEqual({ orderNumber: '12345', test: true });
      await person.seen('function-tested');
      await person.select(page.getByLabel('Agent', { exact: true }), { label: AGENT });
      await person.click(page.getByRole('button', { name: 'Attach to agent' }));
      await page.getByRole('list', { name: 'Agents the function is attached to' }).getByText(AGENT).waitFor();
    });

    await person.step('try it in a scripted test', async () => {
      await page.goto(agentUrl);
      await page.getByRole('heading', { name: AGENT }).waitFor();
      await person.click(page.getByRole('button', { name: 'Start scripted test' }));
      const line = page.getByLabel('The caller says');
      await person.type(line, CALLER_LINE);
      await person.click(page.getByRole('button', { name: 'Send' }));
      const panel = page.getByRole('group', { name: /^Scripted test/ });
      // The tool call as it happens: its arguments, then its outcome; then the agent's answer.
      const tool = panel.getByTestId('live-tool').filter({ hasText: FUNCTION }).first();
      await tool.getByText('12345').waitFor({ timeout: 30_000 });
      await tool.getByText(/success/i).waitFor({ timeout: 30_000 });
      const conversation = panel.getByRole('list', { name: `Scripted conversation with ${AGENT}` });
      await conversation.locator('li.user').getByText(CALLER_LINE).waitFor();
      await waitFor(async () => ((await conversation.locator('li.bot').count()) >= 2 ? true : undefined), {
        timeoutMs: 30_000,
        description: "the agent's greeting and its answer",
      });
      await person.seen('scripted-test');
      await person.click(page.getByRole('button', { name: 'End test' }));
    });

    await person.step('talk to it with the microphone', async () => {
      await person.click(page.getByRole('button', { name: 'Talk', exact: true }));
      const panel = page.getByRole('group', { name: 'Talk', exact: true });
      const conversation = panel.getByRole('list', { name: `Conversation with ${AGENT}` });
      // The offline recogniser hears the fake microphone's line; the agent looks the order up again. The line comes
      // round every few seconds, and a loaded machine may garble a pass of Chromium's fake microphone.
      await conversation.locator('li.user').getByText(CALLER_LINE).first().waitFor({ timeout: 60_000 });
      const tool = panel.getByTestId('live-tool').filter({ hasText: FUNCTION }).first();
      await tool.getByText(/success/i).waitFor({ timeout: 30_000 });
      await person.seen('talk');
      await person.click(page.getByRole('button', { name: 'End', exact: true }));
    });

    await person.step('read the web sessions and the tool’s request and answer', async () => {
      await person.click(page.getByRole('link', { name: 'Calls', exact: true }));
      await page.getByRole('heading', { name: 'Calls', exact: true }).waitFor();
      await person.select(page.getByLabel('Channel'), 'web');
      const rows = main.locator('tbody tr');
      await waitFor(async () => ((await rows.count()) >= 2 ? true : undefined), {
        timeoutMs: 30_000,
        description: 'both web sessions listed',
      });
      await person.seen('calls-web');
      await person.click(rows.first().getByRole('link').first());
      await page.getByRole('heading', { name: 'Web session' }).waitFor();
      await person.seen('web-session');
      await person.click(page.getByRole('link', { name: 'Request and answer' }).first());
      // The request to the order service: what was sent and what came back.
      await main.getByText(orders.url).first().waitFor({ timeout: 30_000 });
      await main.getByText('shipped').first().waitFor();
      await person.seen('integration-log');
    });

    const shopPort = await freePort();
    const shopOrigin = `http://localhost:${shopPort}`;
    let pageSnippet = '';
    let serverSnippet = '';
    await person.step('take the embed snippets', async () => {
      await person.click(page.getByRole('link', { name: 'Embed on your site' }));
      await person.select(page.getByLabel('Agent', { exact: true }), { label: AGENT });
      await person.type(page.getByLabel("Your pages' origins"), shopOrigin);
      await page.getByTestId('embed-server-snippet').getByText(shopOrigin).waitFor();
      await person.seen('embed');
      await person.click(page.getByRole('button', { name: 'Copy: Your web page' }));
      pageSnippet = await readClipboard(page);
      await person.click(page.getByRole('button', { name: /^Copy: Your server/ }));
      serverSnippet = await readClipboard(page);
      expect(serverSnippet).toContain(shopOrigin);
    });

    let apiKey = '';
    await person.step('create an API key', async () => {
      await person.click(page.getByRole('link', { name: 'API keys' }));
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      // The operator's opening key is explained, not a mystery.
      await page.getByText('Platform operator').first().waitFor();
      await person.type(page.getByLabel('Name'), 'web shop');
      await person.click(page.getByRole('button', { name: 'Create key' }));
      apiKey = (await page.getByTestId('new-key').textContent())!.trim();
      expect(apiKey).toMatch(/^rg_live_/);
      await person.seen('keys');
    });

    await person.step('put the agent on the web page', async () => {
      // The team's web server: the snippets as copied, in a folder of its own, run with the new key.
      mkdirSync(join(shopDir, 'public'), { recursive: true });
      // The page snippet is a whole page, saved as the guide says (axe checks it as the visitor sees it).
      writeFileSync(join(shopDir, 'public', 'index.html'), pageSnippet);
      writeFileSync(join(shopDir, 'server.mjs'), serverSnippet);
      // A retried attempt replaces the first attempt's server (its key, its port) rather than leaving it running.
      if (shopServer && shopServer.exitCode === null) {
        const gone = once(shopServer, 'exit');
        shopServer.kill();
        await gone;
      }
      shopServer = spawn(process.execPath, ['server.mjs'], {
        cwd: shopDir,
        env: { ...process.env, VAP_API_KEY: apiKey, PORT: String(shopPort) },
        stdio: 'ignore',
      });
      const shop = await context.newPage();
      await waitFor(
        async () => {
          try {
            return (await shop.goto(shopOrigin))?.ok() ? true : undefined;
          } catch {
            return undefined;
          }
        },
        { timeoutMs: 15_000, description: 'the web shop serving its page' },
      );
      const visitor = new Person(shop, ARTIFACTS);
      await visitor.click(shop.getByRole('button', { name: 'Talk to us' }));
      await shop.locator('#vap-transcript li').first().waitFor({ timeout: 40_000 });
      await shop.getByText(CALLER_LINE).first().waitFor({ timeout: 60_000 });
      await visitor.seen('web-shop');
      person.violations.push(...visitor.violations);
      await visitor.click(shop.getByRole('button', { name: 'End' }));
      await shop.getByText('The conversation ended.').waitFor();
      await shop.close();
    });

    await person.step('call the API with the new key', async () => {
      const { stdout } = await run('curl', [
        '-sS',
        '--max-time',
        '20',
        '-H',
        `Authorization: Bearer ${apiKey}`,
        `${gateway}/api/v2/agent`,
      ]);
      const answer = JSON.parse(stdout) as { success: boolean; data: { agents: { agent_name: string }[] } };
      expect(answer.success).toBe(true);
      expect(answer.data.agents.map((a) => a.agent_name)).toContain(AGENT);
    });

    process.stdout.write(`[ten-minute test] steps and seconds:\n${person.report()}\n`);
    expect(person.violations).toEqual([]);
    expect(person.totalSeconds()).toBeLessThan(TEN_MINUTES_S);
    await context.close();
  }, 900_000);
});
