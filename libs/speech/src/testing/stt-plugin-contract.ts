// What every cloud speech-to-text plugin must do, as one set of specs each plugin's spec runs against its provider's
// fake: hear the caller's 8 kHz frames and answer finish() with the words said, turn a provider that does not answer
// into its ProviderError within the deadline, turn an HTTP 401, 429 or 500 into its ProviderError naming the status
// (never the key), reject a finish() the caller gives up on with the caller's reason, and leave no connection open
// once closed. A plugin with no text to speech also has its key check here (else its TTS contract has it).
import { closeOfflineSpeech, synthesizeOfflineSpeech } from '@vap/media';
import type { SpeechPlugin } from '../plugin';
import { ProviderError } from '../provider-error';
import type { NetworkProviderConfig } from '../speech-settings';
import type { SttOptions, SttProvider, SttSession } from '../stt-provider';
import {
  connectionCounter,
  expectKeyChecks,
  moved,
  refusingServer,
  silentServer,
  startedPerTest,
  waitFor,
  type StartedSpeechFake,
} from './contract-servers';

export interface SttPluginContract {
  plugin: SpeechPlugin;
  /**
   * Starts the provider's fake accepting `apiKey`. `slow`: it takes a second or more to answer an utterance, so a
   * test can give up on one while it is in flight.
   */
  startFake(options: { apiKey: string; slow: boolean }): Promise<StartedSpeechFake>;
  /** The session's options (the agent's languages); English by default. */
  options?: SttOptions;
}

const KEY = 'contract-key-0123456789';
const TEXT = 'I would like to book a table for two tomorrow evening.';
/** 20 ms at 8 kHz: the frames the pipeline pushes. */
const FRAME = 160;

/** Words as any provider formats them: case and punctuation aside. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .trim()
    .split(/\s+/);

/** The caller saying TEXT, then half a second of quiet, frame by frame. */
async function say(session: SttSession): Promise<void> {
  const speech = await synthesizeOfflineSpeech(TEXT);
  const audio = new Int16Array(speech.length + 4000);
  audio.set(speech);
  for (let at = 0; at < audio.length; at += FRAME) session.push(audio.subarray(at, at + FRAME));
}

export function sttPluginContract(contract: SttPluginContract): void {
  const { plugin } = contract;
  const stt = plugin.stt!;
  const options: SttOptions = contract.options ?? { languages: ['en'] };
  const provider = (baseUrl: string, overrides: Partial<NetworkProviderConfig> = {}): SttProvider =>
    stt.create({ baseUrl, apiKey: KEY, timeoutMs: 3000, ...overrides });
  const started = startedPerTest();

  /** An utterance from open() to finish(), the session closed however it ends. */
  async function utterance(target: SttProvider, signal?: AbortSignal): Promise<string> {
    let session: SttSession | undefined;
    try {
      session = await target.open(options);
      await say(session);
      return await session.finish(signal);
    } finally {
      await session?.close();
    }
  }

  async function failureOf(run: Promise<unknown>): Promise<ProviderError> {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      provider: 'stt',
      name: plugin.name,
      reason: `stt_provider_error:${plugin.name}`,
    });
    return error as ProviderError;
  }

  afterAll(() => closeOfflineSpeech());

  describe(`${plugin.label} speech to text: the speech plugin contract`, () => {
    if (!plugin.tts) {
      it('checks a key: its own is good, another is rejected, a server that is not there is unreachable', async () => {
        const fake = await started(contract.startFake({ apiKey: KEY, slow: false }));
        await expectKeyChecks(plugin, fake, KEY);
      });
    }

    it("hears the caller's 8 kHz frames and answers finish() with the words said", async () => {
      const fake = await started(contract.startFake({ apiKey: KEY, slow: false }));
      expect(words(await utterance(provider(fake.baseUrl)))).toEqual(words(TEXT));
    });

    it('fails as its ProviderError within the deadline when the provider does not answer', async () => {
      const silent = await started(silentServer());
      const begun = Date.now();
      const error = await failureOf(utterance(provider(silent.url, { timeoutMs: 300 })));
      expect(error.message).toMatch(/timed out/);
      expect(Date.now() - begun).toBeLessThan(2000);
    });

    it.each([401, 429, 500])(
      'fails as its ProviderError naming an HTTP %d, without the key',
      async (status) => {
        const refusing = await started(refusingServer(status));
        const error = await failureOf(utterance(provider(refusing.url)));
        expect(error.message).toContain(String(status));
        expect(error.message).not.toContain(KEY);
      },
    );

    it("rejects a finish() the caller gives up on with the caller's reason, and leaves no connection open once closed", async () => {
      const fake = await started(contract.startFake({ apiKey: KEY, slow: true }));
      const counter = await started(connectionCounter(fake.baseUrl));
      const session = await provider(moved(fake.baseUrl, `http://${counter.host}`), { timeoutMs: 5000 }).open(
        options,
      );
      await say(session);
      const giveUp = new AbortController();
      const reason = new Error('the call ended');
      const answer = session.finish(giveUp.signal);
      // In flight: a live socket is open from the start, a per-utterance request once finish() posts it.
      await waitFor(() => counter.open() === 1);
      giveUp.abort(reason);
      await expect(answer).rejects.toBe(reason);
      await session.close();
      await waitFor(() => counter.open() === 0);
    });
  });
}
