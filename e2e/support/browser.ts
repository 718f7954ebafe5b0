/**
 * A real browser for the web client's specs: Debian's Chromium (`.ci/run` installs it) driven by
 * playwright-core (which brings no browser of its own), headless, with a fake microphone that plays a WAV
 * file and the permission prompt answered yes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { waitFor, workspaceRoot } from '@vap/testing';
import {
  closeOfflineSpeech,
  encodePcm16Wav,
  OFFLINE_SPEECH_SAMPLE_RATE,
  synthesizeOfflineSpeech,
} from '@vap/media';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface LaunchedBrowser {
  browser: Browser;
  /** Closes the browser and removes its files. */
  close(): Promise<void>;
}

/**
 * Launches Chromium whose microphone plays `micWav` (a PCM16 WAV file; Chromium loops it), every other
 * network and update feature off.
 */
export async function launchBrowser(options: { micWav?: string } = {}): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: apt-get install chromium (.ci/run installs it when missing)`,
    );
  }
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--autoplay-policy=no-user-gesture-required',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
  ];
  if (options.micWav) args.push(`--use-file-for-fake-audio-capture=${options.micWav}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  return { browser, close: () => browser.close() };
}

export interface SpokenWav {
  /** The WAV file's path. */
  path: string;
  /** Its samples (8 kHz PCM16), for comparison. */
  samples: Int16Array;
  sampleRate: number;
  /** Removes the file. */
  remove(): void;
}

/**
 * Writes what the platform's offline synthesizer says for `text` (flite speech with the text in-band, the
 * offline STT's modem at 2.8/3.2 kHz) as a WAV file, after `leadMs` and followed by `silenceMs` of silence so
 * the fake microphone's loop leaves a gap between repeats.
 */
export async function writeSpokenWav(text: string, silenceMs = 1000, leadMs = 0): Promise<SpokenWav> {
  const speech = await synthesizeOfflineSpeech(text);
  await closeOfflineSpeech();
  const sampleRate = OFFLINE_SPEECH_SAMPLE_RATE;
  const lead = Math.round((sampleRate * leadMs) / 1000);
  const samples = new Int16Array(lead + speech.length + Math.round((sampleRate * silenceMs) / 1000));
  samples.set(speech, lead);
  const dir = mkdtempSync(join(tmpdir(), 'vap-mic-'));
  const path = join(dir, 'mic.wav');
  writeFileSync(path, encodePcm16Wav(samples, sampleRate));
  return { path, samples, sampleRate, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The probes a test page puts around the web client, as page script (inside a `<script type="module">`):
 * `window.level()` measures the output (an analyser spliced in front of the speakers), `window.peak` keeps its
 * highest level, `window.clears` collects, for each `clear` the server sends, the ms from its arrival to the
 * output's silence, `window.micStream` holds the microphone stream the client opened, and
 * `window.start(url, audio)` connects the client (`window.client`) recording its events in `window.events`.
 * `importFrom` is where the page loads the client module from.
 */
export function clientProbeScript(importFrom: string): string {
  return `import { VoiceClient } from '${importFrom}';
const connect = AudioNode.prototype.connect;
AudioNode.prototype.connect = function (destination, ...rest) {
  if (destination instanceof AudioDestinationNode) {
    const analyser = this.context.createAnalyser();
    analyser.fftSize = 256;
    connect.call(this, analyser);
    window.analyser = analyser;
  }
  return connect.call(this, destination, ...rest);
};
const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (constraints) => (window.micStream = await getUserMedia(constraints));
window.level = () => {
  if (!window.analyser) return 0;
  const samples = new Float32Array(window.analyser.fftSize);
  window.analyser.getFloatTimeDomainData(samples);
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
};
window.peak = 0;
setInterval(() => (window.peak = Math.max(window.peak, window.level())), 10);
const NativeWebSocket = WebSocket;
window.clears = [];
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (event) => {
      if (typeof event.data !== 'string' || JSON.parse(event.data).type !== 'clear') return;
      const at = performance.now();
      const tick = () => {
        const elapsed = performance.now() - at;
        if (window.level() < 0.01 || elapsed > 2000) window.clears.push(elapsed);
        else setTimeout(tick, 1);
      };
      tick();
    });
  }
};
window.events = [];
window.start = async (url, audio) => {
  const client = await VoiceClient.connect({ url, audio });
  for (const name of ['transcript', 'agent', 'tool', 'speech', 'ended', 'error'])
    client.on(name, (event) => window.events.push({ name, event: event instanceof Error ? event.message : event }));
  window.client = client;
};
window.VoiceClient = VoiceClient;
window.ready = true;`;
}

// Evaluated as a script of its own through the browser's debugging protocol, which the page's CSP does not govern:
// the console is checked under the policy a partner's browser enforces.
const AXE_SOURCE = readFileSync(join(workspaceRoot(), 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** One rule axe found broken on a page: its id, its impact and the elements that break it (axe's selectors). */
export interface A11yViolation {
  id: string;
  impact: string | null;
  targets: string[];
}

/** What axe-core finds broken on the page as it is now (a tab or dialog opened since the last check counts). */
export async function a11yViolations(page: Page): Promise<A11yViolation[]> {
  // Once per document: a check after a tab or dialog opened finds axe there already.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = globalThis as unknown as {
      axe: {
        run: (options: { resultTypes: string[] }) => Promise<{
          violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
        }>;
      };
    };
    // Only violations are read: axe then details one element of each other kind of result instead of every one.
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
}

/** The page's serious and critical accessibility violations, each as `rule-id (the elements)`. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  return (await a11yViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.targets.join(', ')})`);
}

/** What a page keeps open for as long as it is shown, rather than loading and finishing. */
const HELD_OPEN = new Set(['media', 'eventsource', 'websocket']);
const QUIET_MS = 500;

export interface NetworkWatch {
  /**
   * Resolves once no request the page loads with has been in flight for 500 ms: what Playwright's networkidle
   * waits for, less the requests a page holds open while shown. A call page's recording is one: Chromium reads
   * the <audio> element's metadata, then leaves its request pending until it drops it some 15 s later.
   */
  quiet(timeoutMs?: number): Promise<void>;
}

/** Follows the page's requests from now on (before the navigation whose loading is waited for). */
export function watchNetwork(page: Page): NetworkWatch {
  const inFlight = new Set<Request>();
  let changedAt = Date.now();
  page.on('request', (request) => {
    if (HELD_OPEN.has(request.resourceType())) return;
    inFlight.add(request);
    changedAt = Date.now();
  });
  const done = (request: Request) => {
    if (inFlight.delete(request)) changedAt = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async quiet(timeoutMs = 30_000) {
      await waitFor(
        () => {
          // Thrown, the requests still out are quoted if the wait times out.
          if (inFlight.size > 0)
            throw new Error(`in flight: ${[...inFlight].map((r) => r.url()).join(', ')}`);
          return Date.now() - changedAt >= QUIET_MS ? true : undefined;
        },
        { timeoutMs, intervalMs: 50, description: "the page's requests to finish" },
      );
    },
  };
}
