// What every cloud text-to-speech plugin must do, as one set of specs each plugin's spec runs against its provider's
// fake: check a key (good, rejected, unreachable), speak the text as 8 kHz PCM16 in pieces of at most 100 ms, turn a
// passed deadline into its ProviderError with the ProviderTimeout as cause, turn an HTTP 401, 429 or 500 into its
// ProviderError quoting the provider (never the key), stop at once and quietly on a cancel (barge-in), and free the
// request's connection when cancelled or when the consumer stops early. Provider-specific behaviour stays in its
// own spec.
import { closeOfflineSpeech } from '@vap/media';
import type { SpeechPlugin } from '../plugin';
import { ProviderError, ProviderTimeout } from '../provider-error';
import type { NetworkProviderConfig } from '../speech-settings';
import type { TtsProvider, TtsVoice } from '../tts-provider';
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
import { FakeRecogniser } from './fake-provider-server';

export interface TtsPluginContract {
  plugin: SpeechPlugin;
  voice: TtsVoice;
  /**
   * Starts the provider's fake accepting `apiKey`. `slow`: the answer takes a second or more to stream, so a test
   * can stop it part-way.
   */
  startFake(options: { apiKey: string; slow: boolean }): Promise<StartedSpeechFake>;
  /** Settings the provider needs besides its base URL and key (Azure's region). */
  config?: Partial<NetworkProviderConfig>;
}

const KEY = 'contract-key-0123456789';
const TEXT = 'Thank you for calling, how can I help you today?';
/** 100 ms at 8 kHz. */
const MAX_PIECE_SAMPLES = 800;

async function collect(audio: AsyncIterable<Int16Array>): Promise<Int16Array[]> {
  const pieces: Int16Array[] = [];
  for await (const piece of audio) pieces.push(piece);
  return pieces;
}

async function failureOf(audio: AsyncIterable<Int16Array>): Promise<ProviderError> {
  const error = await collect(audio).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

export function ttsPluginContract(contract: TtsPluginContract): void {
  const { plugin, voice } = contract;
  const tts = plugin.tts!;
  const provider = (baseUrl: string, overrides: Partial<NetworkProviderConfig> = {}): TtsProvider =>
    tts.create({ baseUrl, apiKey: KEY, timeoutMs: 3000, ...contract.config, ...overrides });
  const started = startedPerTest();
  afterAll(() => closeOfflineSpeech());

  describe(`${plugin.label} text to speech: the speech plugin contract`, () => {
    it('checks a key: its own is good, another is rejected, a server that is not there is unreachable', async () => {
      const fake = await started(contract.startFake({ apiKey: KEY, slow: false }));
      await expectKeyChecks(plugin, fake, KEY, contract.config);
    });

    it('speaks the text as 8 kHz PCM16 in pieces of at most 100 ms', async () => {
      const fake = await started(contract.startFake({ apiKey: KEY, slow: false }));
      const pieces = await collect(provider(fake.baseUrl).synthesize({ text: TEXT, voice }));
      expect(pieces.length).toBeGreaterThan(1);
      for (const piece of pieces) {
        expect(piece).toBeInstanceOf(Int16Array);
        expect(piece.length).toBeGreaterThan(0);
        expect(piece.length).toBeLessThanOrEqual(MAX_PIECE_SAMPLES);
      }
      // The fakes speak the offline engine's speech, whose words read back only at the right rate.
      const recogniser = new FakeRecogniser(8000);
      expect(pieces.flatMap((piece) => recogniser.push(piece))).toEqual([TEXT]);
    });

    it('fails as its ProviderError, the ProviderTimeout as cause, when the provider does not answer in time', async () => {
      const silent = await started(silentServer());
      const begun = Date.now();
      const error = await failureOf(
        provider(silent.url, { timeoutMs: 300 }).synthesize({ text: TEXT, voice }),
      );
      expect(error).toMatchObject({
        provider: 'tts',
        name: plugin.name,
        reason: `tts_provider_error:${plugin.name}`,
      });
      expect(error.cause).toBeInstanceOf(ProviderTimeout);
      expect(Date.now() - begun).toBeLessThan(2000);
    });

    it.each([401, 429, 500])(
      'fails as its ProviderError quoting an HTTP %d refusal, without the key',
      async (status) => {
        const refusing = await started(refusingServer(status));
        const error = await failureOf(provider(refusing.url).synthesize({ text: TEXT, voice }));
        expect(error).toMatchObject({ provider: 'tts', name: plugin.name });
        // The provider's own words, for whoever reads the call's failure.
        expect(error.message).toContain(`refused with ${status}`);
        expect(error.message).not.toContain(KEY);
      },
    );

    it('stops at once and quietly on a cancel (barge-in), also while waiting for the first audio', async () => {
      const fake = await started(contract.startFake({ apiKey: KEY, slow: true }));
      const cancel = new AbortController();
      let afterCancel = 0;
      const begun = Date.now();
      for await (const _piece of provider(fake.baseUrl, { timeoutMs: 5000 }).synthesize(
        { text: TEXT, voice },
        cancel.signal,
      )) {
        if (cancel.signal.aborted) afterCancel++;
        cancel.abort();
      }
      expect(cancel.signal.aborted).toBe(true);
      expect(afterCancel).toBe(0);
      expect(Date.now() - begun).toBeLessThan(1500);

      const silent = await started(silentServer());
      const early = new AbortController();
      setTimeout(() => early.abort(), 100);
      const waited = Date.now();
      await expect(
        collect(provider(silent.url, { timeoutMs: 5000 }).synthesize({ text: TEXT, voice }, early.signal)),
      ).resolves.toEqual([]);
      expect(Date.now() - waited).toBeLessThan(1500);
    });

    it('frees its connection when cancelled and when the consumer stops early', async () => {
      const fake = await started(contract.startFake({ apiKey: KEY, slow: true }));
      const counter = await started(connectionCounter(fake.baseUrl));
      const base = moved(fake.baseUrl, `http://${counter.host}`);

      const cancel = new AbortController();
      for await (const _piece of provider(base, { timeoutMs: 5000 }).synthesize(
        { text: TEXT, voice },
        cancel.signal,
      )) {
        expect(counter.open()).toBe(1);
        cancel.abort();
      }
      await waitFor(() => counter.open() === 0);

      for await (const _piece of provider(base, { timeoutMs: 5000 }).synthesize({ text: TEXT, voice })) {
        expect(counter.open()).toBe(1);
        break;
      }
      await waitFor(() => counter.open() === 0);
    });
  });
}
