// The agent's Tests tab in a real browser (Debian's Chromium): the owner writes a scripted scenario through the
// form (caller lines with pauses, a tool-called assertion with an expected argument value, a transcript
// assertion and a judge), runs it against the agent, and the run's page follows it without a reload until it is
// completed, showing each assertion's verdict, the judge's score and a link to the attempt's session; the
// agent's run history shows the pass rate. The tab has no serious accessibility violations. The agent's model
// and the judge are the fake OpenAI-compatible server scripted below (as in test-runs.e2e-spec.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BACKEND_SERVICES, workspaceRoot } from '@vap/testing';
import {
  launchBrowser,
  type LaunchedBrowser,
  seriousA11yViolations,
  watchNetwork,
} from '../../support/browser';
import { ChatScript, lastUserText } from '../../support/fake-media';
import { VoiceWorld } from '../voice/voice-fixtures';
import { signInNewOwner } from './console-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const AGENT_NAME = 'Tested Maya';
const SCENARIO = 'Books, then says goodbye';
const ASK = 'I would like to book a table.';
const BYE = 'Thank you, goodbye.';
const REASON = 'the caller said goodbye';

/** The agent's model: says back what it heard, and calls end_call on a goodbye. */
const script: ChatScript = (request) => {
  if (request.messages[request.messages.length - 1]?.role === 'tool') return { text: '' };
  const heard = lastUserText(request);
  if (/\bgoodbye\b/i.test(heard) && request.tools.some((t) => t.function?.name === 'end_call'))
    return { toolCalls: [{ name: 'end_call', arguments: { reason: REASON } }] };
  return { text: `You said ${heard.replace(/[.?!]+$/, '')}.` };
};

describe('the agent’s Tests tab in a browser', () => {
  let world: VoiceWorld;
  let launched: LaunchedBrowser;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let agentId: string;
  let runPath: string;
  const consoleUrl = (path = '') => `${world.gateway}/console${path}`;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await VoiceWorld.start({
      name: 'console_tests',
      providers: { llm: true },
      // The console's pages read every service.
      services: BACKEND_SERVICES,
    });
    world.ai.script(script);
    launched = await launchBrowser();
    browser = launched.browser;
    agentId = (await world.agent({ agent_name: AGENT_NAME, end_call_enabled: true })).id;

    // The owner works under the console's CSP, as a partner's browser does; the accessibility check bypasses it.
    page = await signInNewOwner(browser, world.gateway);
    owner = page.context();
  }, 240_000);

  afterAll(async () => {
    await launched?.close();
    await world?.stop();
  });

  it('writes a scenario through the form, runs it, and shows the verdicts and the pass rate', async () => {
    await page.goto(consoleUrl(`/agents/${agentId}`));
    await page.getByRole('tab', { name: 'Tests' }).click();
    expect(new URL(page.url()).pathname).toBe(`/console/agents/${agentId}/tests`);
    await page.getByText('No runs yet').waitFor();

    await page.getByRole('button', { name: 'New scenario' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'New scenario' }) });
    await form.getByLabel('Name', { exact: true }).fill(SCENARIO);
    await form.getByLabel('Line 1', { exact: true }).fill(ASK);
    await form.getByLabel('Pause before line 1 (ms)').fill('300');
    await form.getByRole('button', { name: 'Add a line' }).click();
    await form.getByLabel('Line 2', { exact: true }).fill(BYE);
    await form.getByLabel('Pause before line 2 (ms)').fill('300');

    // A wrong assertion is refused with a message a person can act on, and nothing is created.
    await form.getByRole('button', { name: 'Add an assertion' }).click();
    await form.getByRole('button', { name: 'Create scenario' }).click();
    await form.getByRole('alert').filter({ hasText: 'Some fields need attention' }).waitFor();
    await form
      .getByText(/^Assertion 1 text must be a non-empty string/)
      .first()
      .waitFor();

    await form.getByLabel('Assertion 1', { exact: true }).selectOption('tool_called');
    await form.getByLabel('Assertion 1 tool').fill('end_call');
    await form.getByRole('button', { name: 'Add an argument' }).click();
    await form.getByLabel('Assertion 1 argument 1', { exact: true }).fill('reason');
    await form.getByLabel('Assertion 1 expected value 1', { exact: true }).fill(REASON);
    await form.getByRole('button', { name: 'Add an assertion' }).click();
    await form.getByLabel('Assertion 2 text').fill(`You said ${ASK.replace('.', '')}`);
    await form.getByLabel('Assertion 2 said by').selectOption('agent');
    await form
      .getByLabel('Rubric')
      .fill('The agent repeats what the caller wants and ends the call politely.');
    await form.getByLabel('Pass threshold (0 to 1)').fill('0.5');
    await form.getByRole('button', { name: 'Create scenario' }).click();
    const row = page.getByRole('row').filter({ hasText: SCENARIO });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['scripted', '2', 'pass at 0.5']),
    );
    const stored = (await world.api('/test-scenarios')).body.data.scenarios;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      lines: [
        { text: ASK, pause_ms: 300 },
        { text: BYE, pause_ms: 300 },
      ],
      assertions: [
        { kind: 'tool_called', tool: 'end_call', arguments: { reason: REASON } },
        { kind: 'transcript_contains', role: 'agent' },
      ],
      judge: { pass_threshold: 0.5 },
    });

    await page.getByLabel(SCENARIO, { exact: true }).check();
    await page.getByLabel('Repetitions').selectOption('1');
    await page.getByRole('button', { name: 'Run tests' }).click();
    await page.waitForURL(/\/tests\/trun_/);
    runPath = new URL(page.url()).pathname.replace('/console', '');
    // Followed without a reload: a mark in the page survives until the run is completed.
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    await page
      .getByTestId('run-status')
      .filter({ hasText: /^completed$/ })
      .waitFor({ timeout: 240_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await page.getByTestId('run-pass-rate').textContent()).toBe('100%');
    expect(await page.getByTestId('attempt-status').allTextContents()).toEqual(['passed']);
    const verdicts = page.getByTestId('verdict');
    expect(await verdicts.count()).toBe(2);
    expect(await verdicts.nth(0).textContent()).toMatch(/^tool calledPassed/);
    expect(await verdicts.nth(1).textContent()).toMatch(/^transcript containsPassed/);
    expect(await page.getByTestId('judge').textContent()).toMatch(
      /^Judge: score \d\.\d\d \(passes at 0\.5\), passed\./,
    );
    const session = page.getByRole('link', { name: 'Open the session' });
    const href = await session.getAttribute('href');
    expect(href).toMatch(/^\/console\/calls\/web\/.+/);
    const sessionId = href!.split('/').pop()!;
    expect((await world.api(`/browser-sessions/${sessionId}`)).body.data).toMatchObject({
      agent_id: agentId,
    });
    await page.screenshot({ path: join(ARTIFACTS, 'tests-run.png'), fullPage: true });

    // The history: the run with its pass rate.
    await page.getByRole('link', { name: 'All test runs' }).click();
    const history = page.getByRole('row').filter({ has: page.getByTestId('run-pass-rate') });
    await history.first().waitFor();
    expect(await history.count()).toBe(1);
    expect(await history.getByTestId('run-pass-rate').textContent()).toBe('100%');
    expect(await history.textContent()).toContain('completed');
    expect(await history.textContent()).toContain('1 of 1 passed');
    await page.screenshot({ path: join(ARTIFACTS, 'tests-tab.png'), fullPage: true });
  }, 300_000);

  it('has no serious or critical accessibility violations on the Tests tab and a run', async () => {
    const context = await browser.newContext({ storageState: await owner.storageState() });
    const a11y = await context.newPage();
    const network = watchNetwork(a11y);
    const found: string[] = [];
    const check = async (path: string, heading: RegExp, prepare?: () => Promise<void>) => {
      await a11y.goto(consoleUrl(path));
      await a11y.getByRole('heading', { name: heading }).waitFor();
      await network.quiet();
      await prepare?.();
      const violations = await seriousA11yViolations(a11y);
      found.push(...violations.map((v) => `${path}: ${v}`));
    };
    await check(`/agents/${agentId}/tests`, /^Scenarios$/, async () => {
      await a11y.getByRole('button', { name: 'New scenario' }).click();
      await a11y.getByRole('button', { name: 'Add an assertion' }).click();
      await a11y.getByLabel('Assertion 1', { exact: true }).selectOption('tool_called');
      await a11y.getByRole('button', { name: 'Add an argument' }).click();
    });
    await check(runPath, /^Test run of/);
    expect(found).toEqual([]);
    await context.close();
  }, 120_000);
});
