// The one-tag widget in a real browser: a plain page holds nothing but the platform's <script> tag with an
// agent and a publishable key; a person presses the talk button, speaks (Debian's Chromium with a fake
// microphone playing what the platform's offline synthesizer says; the offline recogniser reads it) and the
// agent's answer shows in the widget's transcript. No server of the partner's and no provider key: the page
// creates its own session with the publishable key, which the console's Embed page made and put in the tag. Media
// time runs at wall speed: a browser plays in real time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@vap/testing';
import {
  launchBrowser,
  seriousA11yViolations,
  writeSpokenWav,
  type LaunchedBrowser,
  type SpokenWav,
} from '../../support/browser';
import { signInNewOwner } from '../console/console-fixtures';
import { VoiceWorld } from '../voice/voice-fixtures';
import { voiceScript } from '../voice/voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
const SAID = 'What are your opening hours?';
const ANSWER = 'You said What are your opening hours.';

/** The partner's whole page: the one tag and nothing else of the platform's. */
function pageHtml(tag: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme</title></head><body>
${tag}
</body></html>`;
}

describe('the one-tag widget in a real browser', () => {
  let world: VoiceWorld;
  let browser: LaunchedBrowser;
  let mic: SpokenWav;
  let pageServer: Server;
  let origin: string;
  let html = '';
  let agent: { id: string };
  /** The one tag the console's Embed page gave. */
  let tag = '';

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'widget_browser',
      providers: { llm: true },
      env: { MEDIA_TIME_SCALE: '1' },
    });
    world.ai.script(voiceScript);
    // Looped: 4 s of silence (the intro plays), the person's line, 6 s of silence.
    mic = await writeSpokenWav(SAID, 6000, 4000);
    browser = await launchBrowser({ micWav: mic.path });
    pageServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    mic?.remove();
    await new Promise((resolve) => pageServer?.close(resolve));
    await world?.stop();
  });

  it('the Embed page makes a publishable key for the agent and the page and offers the one tag, accessibly', async () => {
    agent = await world.agent({ agent_name: 'Widget Maya', intro_message: INTRO });
    const consolePage = await signInNewOwner(browser.browser, world.gateway);
    await consolePage.goto(`${world.gateway}/console/embed`);
    await consolePage.getByRole('heading', { name: 'Embed on your site' }).waitFor();
    await consolePage.getByLabel('Agent').selectOption({ label: 'Widget Maya' });
    await consolePage.getByLabel("Your pages' origins").fill(origin);
    // Until a key is made the tag holds a placeholder, with the way to make one.
    expect(await consolePage.getByTestId('embed-widget-snippet').textContent()).toContain(
      'pk_live_YOUR_PUBLISHABLE_KEY',
    );
    await consolePage.getByRole('link', { name: 'create a publishable key' }).waitFor();
    await consolePage.getByRole('button', { name: 'Create a publishable key for this agent' }).click();
    const form = consolePage.getByRole('form', { name: 'Create a publishable key' });
    expect(await form.getByRole('checkbox', { name: 'Widget Maya' }).isChecked()).toBe(true);
    expect(await form.getByLabel('Pages it may be used from (origins)').inputValue()).toBe(origin);
    expect(await seriousA11yViolations(consolePage)).toEqual([]);
    await form.getByRole('button', { name: 'Create publishable key' }).click();
    await consolePage.getByText('you just made is filled in').waitFor();
    tag = (await consolePage.getByTestId('embed-widget-snippet').textContent())!.trim();
    expect(tag).toMatch(
      new RegExp(
        `^<script src="${world.gateway}/sdk/widget\\.js" data-agent-id="${agent.id}" data-public-key="pk_live_[A-Za-z0-9_-]{40}"></script>$`,
      ),
    );
    expect(await seriousA11yViolations(consolePage)).toEqual([]);
    // The API keys page lists it by its prefix, beside the API keys.
    await consolePage.goto(`${world.gateway}/console/keys`);
    await consolePage.getByRole('heading', { name: 'Publishable keys' }).waitFor();
    await consolePage.getByRole('cell', { name: origin }).waitFor();
    // Its form opens on demand: until then the API key's Name is the page's only one.
    expect(await consolePage.getByLabel('Name').count()).toBe(1);
    await consolePage.getByRole('button', { name: 'Create a publishable key' }).click();
    await consolePage.getByRole('form', { name: 'Create a publishable key' }).waitFor();
    expect(await seriousA11yViolations(consolePage)).toEqual([]);
    await consolePage.context().close();
  }, 60_000);

  it('talks: the page with only the tag creates its session with the publishable key, and the answer shows', async () => {
    // The tag as the console gave it; the attributes keep Chromium from suppressing the synthetic voice.
    html = pageHtml(
      tag.replace('></script>', ' data-noise-suppression="false" data-echo-cancellation="false"></script>'),
    );
    const prefix = /data-public-key="(pk_live_.{12})/.exec(tag)![1];
    const page = await browser.browser.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(origin);
    const talk = page.getByRole('button', { name: 'Talk to us' });
    await talk.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await talk.click();
    await page.getByRole('button', { name: 'End conversation' }).waitFor({ timeout: 20_000 });
    const lines = (role: string) =>
      page.locator(`.vap-widget-transcript li[data-role="${role}"][data-final="true"]`).allTextContents();
    await waitFor(async () => (await lines('agent')).includes(`Agent: ${INTRO}`) || undefined, {
      timeoutMs: 20_000,
      description: 'the intro in the widget transcript',
    });
    // The fake microphone says it every 10 s or so; a loaded machine may garble one pass.
    await waitFor(async () => (await lines('user')).includes(`You: ${SAID}`) || undefined, {
      timeoutMs: 60_000,
      description: "the person's line in the widget transcript",
    });
    await waitFor(async () => (await lines('agent')).includes(`Agent: ${ANSWER}`) || undefined, {
      timeoutMs: 40_000,
      description: "the agent's answer in the widget transcript",
    });
    // The conversation region, read out as it grows, passes axe too.
    expect(await page.getByRole('list', { name: 'Conversation' }).getAttribute('aria-live')).toBe('polite');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Ended from the widget: the session completes, on the key's account, from the page's origin.
    await page.getByRole('button', { name: 'End conversation' }).click();
    await page.getByRole('button', { name: 'Talk to us' }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole('status').textContent()).toMatch(/ended/);
    const sessions = await waitFor(
      async () => {
        const res = await world.api(`/browser-sessions?agent_id=${agent.id}&status=completed`);
        return res.body.data?.browser_sessions?.length ? res.body.data.browser_sessions : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the session to complete' },
    );
    expect(sessions[0]).toMatchObject({
      allowed_origins: [origin],
      metadata: { publishable_key: prefix, origin },
    });
    await page.close();
  }, 180_000);

  it('tells the person why it cannot start when the page is not one the key lists', async () => {
    const made = await world.api('/publishable-keys', {
      method: 'POST',
      body: { name: 'Other site', agent_ids: [agent.id], allowed_origins: ['https://www.example.com'] },
    });
    expect(made.status).toBe(200);
    html = pageHtml(
      `<script src="${world.gateway}/sdk/widget.js" data-agent-id="${agent.id}" data-public-key="${made.body.data.public_key}"></script>`,
    );
    const page = await browser.browser.newPage();
    await page.goto(origin);
    await page.getByRole('button', { name: 'Talk to us' }).click();
    // The preflight is refused (no key lists this origin), so the browser reports a failed request.
    await waitFor(
      async () => /Could not start/.test((await page.getByRole('status').textContent()) ?? '') || undefined,
      {
        timeoutMs: 10_000,
        description: 'the refusal in the widget status',
      },
    );
    expect(await page.getByRole('button', { name: 'Talk to us' }).isEnabled()).toBe(true);
    await page.close();
  });
});
