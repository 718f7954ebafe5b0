// The console's agent builder, Tools and Provider keys pages in a real browser (Debian's Chromium through
// playwright-core), through the real gateway: a custom function is created with the schema editor (an invalid
// schema is told inline), tested against a local HTTPS server of the partner's (status and body seen, the
// signature masked), an unreachable endpoint's failure explained; an agent is created through the builder's
// sections (a voice found with the filters and previewed, turn taking and extraction keys set with forms, the
// function attached) and the API holds exactly that; the function is attached and detached from its own
// page, its integration log opened; and no page has serious or critical accessibility violations.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { workspaceRoot } from '@vap/testing';
import { api, createPartner, e2eEnv } from '../../support';
import { launchBrowser, LaunchedBrowser, seriousA11yViolations, watchNetwork } from '../../support/browser';
import { FunctionServer, startFunctionServer } from '../agents/function-server';
import { VOICE_ID } from '../calls/call-fixtures';
import { inviteUser } from './console-fixtures';

const ARTIFACTS = join(workspaceRoot(), 'tmp', 'e2e-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';
/** The seeded catalog voice VOICE_ID: Neerja, en-IN, female. */
const VOICE_NAME = 'Neerja';

describe('the console’s agent builder, tools and provider keys in a browser', () => {
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;
  let apiKey: string;
  let server: FunctionServer;
  let functionId: string;
  let agentId: string;
  let logPath: string;
  const consoleUrl = (path = '') => `${e2eEnv().gatewayUrl}/console${path}`;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startFunctionServer();
    server.answer('/orders', { status: 200, body: JSON.stringify({ order: { status: 'shipped' } }) });
    launched = await launchBrowser();
    const created = await createPartner({ name: `Builder Co ${Date.now()}`, balance_inr: 100 });
    apiKey = created.apiKey;
    const link = await inviteUser(created.partner.id, {
      email: `builder-${Date.now()}@example.com`,
      name: 'Builder',
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

  it('creates a custom function with the schema editor, telling an invalid schema inline', async () => {
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    await page.getByRole('heading', { name: 'Tools', exact: true }).waitFor();
    await page.getByRole('link', { name: 'New function' }).click();
    await page.getByLabel('Name', { exact: true }).fill('check_order');
    await page.getByLabel('Description', { exact: true }).fill('Looks up an order and tells its status');
    await page.getByLabel('HTTPS URL').fill(`${server.url}/orders`);

    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    const schema = page.getByLabel('Parameters JSON Schema');
    const verdict = page.locator('[id$="-check"][aria-live=polite]');
    await schema.fill('{"type": "object", "properties": {"order_id": {"type": "string", "pattern": "^A-"}}}');
    await verdict.getByText('“pattern” is not accepted (at properties.order_id)', { exact: false }).waitFor();
    await schema.fill('{"type": "object", "properties": ');
    await verdict.getByText('Not valid JSON', { exact: false }).waitFor();
    // Saving is refused before anything is sent, the message at the field.
    await page.getByRole('button', { name: 'Create function' }).click();
    await page.getByText('Some fields need attention').waitFor();
    await shot('function-schema-error');
    await schema.fill(
      JSON.stringify({
        type: 'object',
        properties: { order_id: { type: 'string', description: 'The order number' } },
        required: ['order_id'],
      }),
    );
    await verdict.getByText('The schema follows the rules.').waitFor();
    // The form shows the same schema: one required argument.
    await page.getByRole('button', { name: 'Form', exact: true }).click();
    expect(await page.getByLabel('Argument 1 name').inputValue()).toBe('order_id');
    expect(await page.getByLabel('Argument 1 required').isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Create function' }).click();
    await page.getByRole('heading', { name: 'check_order', exact: true }).waitFor();
    await page.getByText('you won’t see this secret again', { exact: false }).waitFor();
    const secret = (await page.getByTestId('signing-secret').textContent())!.trim();
    expect(secret).toMatch(/^fnsec_/);
    functionId = decodeURIComponent(page.url().split('/').pop()!);
    expect(functionId).toMatch(/^fn_/);
    const stored = await api(`/api/v2/custom-functions/${functionId}`, { key: apiKey });
    expect(stored.body.data.parameters).toEqual({
      type: 'object',
      properties: { order_id: { type: 'string', description: 'The order number' } },
      required: ['order_id'],
    });
    await shot('function-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'check_order', exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('tests the function against the partner’s server and shows what was sent and answered', async () => {
    await page.getByLabel('order_id (required)').fill('A-1001');
    await page.getByRole('button', { name: 'Send test request' }).click();
    const result = page.locator('.test-result');
    await result.getByText('Success · 200').first().waitFor();
    // The request as sent (the argument in the body, the signature masked) and the answer's body.
    await result.getByLabel('Request body').getByText('"A-1001"', { exact: false }).waitFor();
    expect(await result.getByRole('row', { name: /x-vap-signature/ }).textContent()).toContain('********');
    expect(await result.getByLabel('Answer body').textContent()).toContain('"shipped"');
    expect(server.requests.at(-1)?.rawBody).toContain('A-1001');
    await shot('function-tested');
  });

  it('explains a request that could not reach the endpoint', async () => {
    const unreachable = await api('/api/v2/custom-functions', {
      method: 'POST',
      key: apiKey,
      // Nothing listens on port 1: the connection is refused at once.
      body: { name: `unreachable_${Date.now()}`, description: 'Never answers', url: 'https://127.0.0.1:1/x' },
    });
    expect(unreachable.status).toBe(200);
    await page.goto(consoleUrl(`/tools/functions/${unreachable.body.data.id}`));
    await page.getByRole('button', { name: 'Send test request' }).click();
    await page.getByText('The platform did not connect', { exact: false }).first().waitFor();
    await page.getByText('Reaching your endpoint in development', { exact: false }).first().waitFor();
    await shot('function-unreachable');
  });

  it('creates an agent through the builder’s sections', async () => {
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.getByRole('link', { name: 'New agent' }).click();
    // Nothing filled in: the API's messages mark the sections and show at the fields.
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('tab', { name: /Model and prompt \(\d errors?\)/ }).waitFor();
    await page.locator('#main [role=alert]').first().waitFor();
    await shot('builder-errors');

    await tab('Model and prompt');
    await page.getByLabel('Name', { exact: true }).fill('Builder Maya');
    // A field changed since the save drops its message and its section's count.
    await page.getByRole('tab', { name: 'Model and prompt (1 error)' }).waitFor();
    await page.getByLabel('Prompt', { exact: true }).fill('You are Maya. You check orders for callers.');
    await page.getByRole('checkbox', { name: 'Hindi' }).check();

    // The tab list is keyboard usable: the arrow key moves to the next section.
    await page.getByRole('tab', { name: /^Model and prompt/ }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: /^Voice/ }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Language', { exact: true }).selectOption('en-IN');
    await page.getByLabel('Gender', { exact: true }).selectOption('female');
    await page.getByRole('radio', { name: VOICE_NAME }).check();
    await page.getByText(`Chosen: ${VOICE_NAME}`, { exact: false }).waitFor();
    await page.getByRole('button', { name: `Play ${VOICE_NAME}` }).click();
    await page.getByLabel(`Preview of ${VOICE_NAME}`).waitFor({ timeout: 30_000 });
    await shot('builder-voice');

    await tab('Tools');
    await page.getByLabel('Custom function', { exact: true }).selectOption({ label: 'check_order' });
    await page.getByRole('button', { name: 'Attach', exact: true }).click();
    await page.getByRole('list', { name: 'Attached custom functions' }).getByText('check_order').waitFor();

    await tab('Call handling');
    await page.getByLabel('Pace').selectOption('patient');
    await page.getByLabel('Silence after a complete sentence (ms)').fill('600');
    await page.getByLabel('Record calls').uncheck();

    await tab('Analysis');
    await page.getByRole('button', { name: 'Add an extraction key' }).click();
    await page.getByLabel('Key 1 name').fill('interest');
    await page.getByLabel('Key 1 type').selectOption('enum');
    await page.getByLabel('Key 1 description').fill('How interested the caller is');
    await page.getByRole('button', { name: 'Add a value' }).click();
    await page.getByRole('textbox', { name: 'Key 1 value 1', exact: true }).fill('high');
    await page.getByRole('button', { name: 'Add a value' }).click();
    await page.getByRole('textbox', { name: 'Key 1 value 2', exact: true }).fill('low');
    await shot('builder-analysis');

    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Builder Maya' }).waitFor();
    agentId = page.url().split('/').pop()!.split('?')[0];
    const agent = (await api(`/api/v2/agent/${agentId}`, { key: apiKey })).body.data;
    expect(agent).toMatchObject({
      agent_name: 'Builder Maya',
      voice_id: VOICE_ID,
      spoken_languages: ['en', 'hi'],
      enable_recording: false,
      turn_taking: { mode: 'patient', min_silence_ms: 600, max_silence_ms: null, ignore_backchannels: true },
      extraction_config: {
        keys: [
          {
            name: 'interest',
            type: 'enum',
            options: ['high', 'low'],
            description: 'How interested the caller is',
          },
        ],
      },
      custom_functions: [{ id: functionId, name: 'check_order' }],
    });
    // The agent's Tools section lists the function, linking to its page.
    await tab('Tools');
    await page
      .getByRole('list', { name: 'Attached custom functions' })
      .getByRole('link', { name: 'check_order' })
      .waitFor();
    await shot('builder-created');
    // An edit sends only what changed.
    await tab('Call handling');
    await page.getByLabel('Maximum call duration (seconds)').fill('900');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    expect((await api(`/api/v2/agent/${agentId}`, { key: apiKey })).body.data.max_call_duration_secs).toBe(
      900,
    );

    // A handoff to another agent of the account, chosen by its name, a warm transfer, and the success rubric of
    // the analysis.
    const billing = await api('/api/v2/agent', {
      method: 'POST',
      key: apiKey,
      body: {
        agent_name: 'Builder Billing',
        prompt: 'You handle bills.',
        voice_id: VOICE_ID,
        agent_type: 'outbound',
      },
    });
    expect(billing.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Builder Maya' }).waitFor();
    await tab('Tools');
    await page.getByRole('button', { name: 'Add a handoff' }).click();
    await page.getByLabel('Handoff 1 name').fill('billing');
    await page.getByLabel('Handoff 1: when to hand off').fill('The caller asks about a bill.');
    await page.getByLabel('Handoff 1 agent').selectOption({ label: 'Builder Billing' });
    await page.getByLabel('Handoff 1: the next agent receives').selectOption('last_turns');
    await page.getByLabel('Handoff 1: how many messages').fill('3');
    // A warm transfer with a handback: the briefing and ring time show once the mode is warm.
    await page.getByLabel('The agent may transfer the call').check();
    await page.getByLabel('Transfer number').fill('+919876500093');
    await page.getByLabel('How to transfer').selectOption('warm_handback');
    await page.getByLabel('What the briefing tells the person').fill('Say what the caller wants.');
    await page.getByLabel('Ring the person for (seconds)').fill('15');
    // The built-in tools the agent may use, by name with what the model is told: every one until one is
    // unchecked; the do-not-call tool cannot be.
    const endCall = page.getByRole('checkbox', { name: 'End call', exact: true });
    expect(await endCall.isChecked()).toBe(true);
    await page.getByText('End the phone call. The agent says goodbye and hangs up.').waitFor();
    const optOut = page.getByRole('checkbox', { name: 'Do-not-call request', exact: true });
    expect(await optOut.isChecked()).toBe(true);
    expect(await optOut.isDisabled()).toBe(true);
    await endCall.uncheck();
    await tab('Analysis');
    await page
      .getByLabel('What a successful call achieves (optional)')
      .fill('The caller knows where the order is.');
    await page.getByLabel('Passing score (out of 10)').fill('8');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const saved = (await api(`/api/v2/agent/${agentId}`, { key: apiKey })).body.data;
    expect(saved.handoffs).toEqual([
      {
        name: 'billing',
        description: 'The caller asks about a bill.',
        agent_id: billing.body.data.id,
        context_mode: 'last_turns',
        last_turns: 3,
        variables: null,
      },
    ]);
    expect(saved).toMatchObject({
      transfer_enabled: true,
      transfer_number: '+919876500093',
      transfer_mode: 'warm_handback',
      transfer_briefing_instructions: 'Say what the caller wants.',
      transfer_ring_timeout_secs: 15,
      // Every selectable tool but the one unchecked (End call).
      tools: ['transfer_call', 'search_knowledge_base', 'send_dtmf', 'send_sms'],
    });
    expect(saved.analysis_config).toEqual({
      summary_enabled: true,
      summary_instructions: null,
      success_rubric: 'The caller knows where the order is.',
      success_threshold: 8,
    });
  }, 120_000);

  it('attaches and detaches the function from its own page and opens its integration log', async () => {
    await tab('Tools');
    await page
      .getByRole('list', { name: 'Attached custom functions' })
      .getByRole('link', { name: 'check_order' })
      .click();
    await page.getByRole('heading', { name: 'check_order', exact: true }).waitFor();
    const agents = page.getByRole('list', { name: 'Agents the function is attached to' });
    await agents.getByRole('link', { name: 'Builder Maya' }).waitFor();
    await page.getByRole('button', { name: 'Detach from Builder Maya' }).click();
    await agents.getByText('Not attached to any agent.').waitFor();
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Builder Maya' });
    await page.getByRole('button', { name: 'Attach to agent' }).click();
    await agents.getByRole('link', { name: 'Builder Maya' }).waitFor();
    expect((await api(`/api/v2/agent/${agentId}`, { key: apiKey })).body.data.custom_functions).toEqual([
      { id: functionId, name: 'check_order' },
    ]);

    const latest = page.getByRole('table', { name: 'Latest requests of check_order' });
    await latest.getByText('Custom function test: check_order').waitFor();
    await latest.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Custom function test: check_order' }).waitFor();
    logPath = new URL(page.url()).pathname.replace(/^\/console/, '');
    expect(logPath).toMatch(/^\/tools\/logs\/ilog_/);
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();
    await page.getByLabel('Answer body').getByText('"shipped"', { exact: false }).waitFor();
    await shot('integration-log-entry');

    // The list view other pages link to, filtered by function (and by call: none for a test).
    await page.goto(consoleUrl(`/tools/logs?function_id=${functionId}`));
    await page
      .getByRole('table', { name: 'Requests to your systems' })
      .getByText('Custom function test: check_order')
      .waitFor();
    await page.goto(consoleUrl('/tools/logs?call_id=00000000-0000-4000-8000-000000000000'));
    await page.getByText('No requests match.').waitFor();
    await page.getByText('Requests of one call.').waitFor();
  });

  it('adds provider keys with their errors told at the field', async () => {
    await page.getByRole('link', { name: 'Provider keys' }).click();
    await page.getByRole('heading', { name: 'Provider keys' }).waitFor();
    await page.getByText('No provider keys', { exact: false }).waitFor();
    await page.getByLabel('Provider', { exact: true }).selectOption('azure');
    await page.getByLabel('Azure region').waitFor();
    await page.getByLabel('API key').fill('short');
    await page.getByRole('button', { name: 'Check and save' }).click();
    await page.getByRole('alert').getByText('api_key must be 8 to 512 characters').first().waitFor();
    await shot('provider-keys');
  });

  it('has no serious or critical accessibility violations on its pages', async () => {
    const a11yContext = await launched.browser.newContext({ storageState: await context.storageState() });
    const a11y = await a11yContext.newPage();
    const network = watchNetwork(a11y);
    const found: string[] = [];
    const check = async (label: string) => {
      await network.quiet();
      const violations = await seriousA11yViolations(a11y);
      found.push(...violations.map((v) => `${label}: ${v}`));
    };
    for (const path of [
      '/agents',
      '/tools',
      '/tools/functions/new',
      `/tools/functions/${functionId}`,
      `/tools/logs?function_id=${functionId}`,
      logPath,
      '/provider-keys',
    ]) {
      await a11y.goto(consoleUrl(path));
      await a11y.locator('main :is(h2, [role=alert])').first().waitFor();
      await check(path);
    }
    // Every section of the builder, new and existing (hidden panels are not checked until shown).
    for (const path of ['/agents/new', `/agents/${agentId}`]) {
      await a11y.goto(consoleUrl(path));
      await a11y.getByRole('tablist', { name: 'Agent sections' }).waitFor();
      for (const name of [
        'Model and prompt',
        'Voice',
        'Transcriber',
        'Tools',
        'Knowledge',
        'Call handling',
        'Analysis',
        'Advanced',
      ]) {
        await a11y.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
        await check(`${path} ${name}`);
      }
    }
    expect(found).toEqual([]);
    await a11yContext.close();
  }, 120_000);
});
