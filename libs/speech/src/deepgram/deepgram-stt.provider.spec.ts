import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { WebSocketServer, type WebSocket } from 'ws';
import { ENDPOINT_SILENCE_MS, sineWave } from '@vap/media';
import { speechEvents } from '../speech-events';
import {
  DeepgramSttProvider,
  deepgramListenUrl,
  FINALIZE_GRACE_MS,
  type DeepgramSttSession,
  type DeepgramTiming,
} from './deepgram-stt.provider';
import { ProviderError } from '../provider-error';
import { DeepgramSpeakFake } from '../testing';
import { sttPluginContract } from '../testing/stt-plugin-contract';
import { deepgramPlugin } from '.';

/** What the fake server saw on one connection. */
interface Seen {
  url: URL;
  auth: string | undefined;
  audioBytes: number;
  controls: string[];
  /** Audio bytes received when each control message arrived. */
  audioAtControl: number[];
}

type Script = (socket: WebSocket, seen: Seen) => void;

let server: WebSocketServer;
let baseUrl: string;
let script: Script;
let connections: Seen[];
/** Upgrade requests, accepted or not. */
let upgrades: number;
/** When set, every upgrade is refused with this HTTP status. */
let refuseWith: number | undefined;

/** A Deepgram-shaped Results message. */
function results(transcript: string, start: number, duration: number, flags: Record<string, boolean> = {}) {
  return JSON.stringify({
    type: 'Results',
    channel_index: [0, 1],
    start,
    duration,
    is_final: false,
    speech_final: false,
    ...flags,
    channel: { alternatives: [{ transcript, confidence: 0.98, words: [] }] },
  });
}

beforeAll(async () => {
  server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: ({ req }, done) => {
      upgrades++;
      if (refuseWith) done(false, refuseWith);
      else if (req.headers.authorization === 'Token dg-key') done(true);
      else done(false, 401, 'Unauthorized');
    },
  });
  server.on('connection', (socket, req) => {
    const seen: Seen = {
      url: new URL(req.url ?? '/', 'ws://fake'),
      auth: req.headers.authorization,
      audioBytes: 0,
      controls: [],
      audioAtControl: [],
    };
    connections.push(seen);
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        seen.audioBytes += (data as Buffer).length;
      } else {
        seen.controls.push(JSON.parse(data.toString()).type as string);
        seen.audioAtControl.push(seen.audioBytes);
      }
    });
    script(socket, seen);
  });
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

let warnings: jest.SpyInstance;

beforeEach(() => {
  connections = [];
  upgrades = 0;
  refuseWith = undefined;
  warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
});

afterEach(() => warnings.mockRestore());

afterAll(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

/** Short reconnect backoffs, so the tests do not wait on Deepgram-sized ones. */
const FAST: Partial<DeepgramTiming> = { reconnectBackoffMs: [20, 40, 80] };

const provider = (apiKey = 'dg-key', timeoutMs = 2000, timing: Partial<DeepgramTiming> = FAST) =>
  new DeepgramSttProvider({ baseUrl, apiKey, model: 'nova-2', timeoutMs }, timing);

const reconnectCounts = { ok: 0, failed: 0 };
speechEvents.on('stt_reconnect', ({ outcome }) => reconnectCounts[outcome]++);
const reconnects = async (outcome: 'ok' | 'failed') => reconnectCounts[outcome];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pushes `ms` of audio in 20 ms frames. */
function speak(session: DeepgramSttSession, ms: number): void {
  const pcm = sineWave(300, (8000 * ms) / 1000, 8000, -15);
  for (let at = 0; at < pcm.length; at += 160) session.push(pcm.subarray(at, at + 160));
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

// Deepgram's live listen fake answers as the provider does; the scripted server below drives the edge cases.
sttPluginContract({ plugin: deepgramPlugin, startFake: ({ apiKey }) => DeepgramSpeakFake.start({ apiKey }) });

describe('deepgramListenUrl', () => {
  it('follows the base URL convention: a base ending in /v1, or its bare origin', () => {
    const config = { apiKey: 'k', timeoutMs: 1000 };
    for (const base of [
      'https://api.deepgram.com/v1',
      'https://api.deepgram.com/v1/',
      'https://api.deepgram.com',
    ]) {
      const url = new URL(deepgramListenUrl({ ...config, baseUrl: base }, { languages: ['en'] }));
      expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://api.deepgram.com/v1/listen');
    }
    expect(
      deepgramListenUrl({ ...config, baseUrl: 'http://dg.internal:8080/v1' }, { languages: [] }),
    ).toMatch(/^ws:\/\/dg\.internal:8080\/v1\/listen\?/);
  });
});

describe('deepgramListenUrl for an agent', () => {
  const config = { apiKey: 'k', timeoutMs: 1000, baseUrl: 'https://api.deepgram.com/v1' };
  const query = (url: string) => new URL(url).searchParams;

  it('sends keyterms as repeated keyterm params to Nova-3 and as keywords to older models', () => {
    const keyterms = ['Acme Dental', 'Dr. Rao & Sons'];
    let q = query(deepgramListenUrl({ ...config, model: 'nova-3' }, { languages: ['en'], keyterms }));
    expect(q.getAll('keyterm')).toEqual(keyterms);
    expect(q.has('keywords')).toBe(false);
    q = query(deepgramListenUrl(config, { languages: ['en'], keyterms, model: 'nova-2' }));
    expect(q.getAll('keywords')).toEqual(keyterms);
    expect(q.has('keyterm')).toBe(false);
  });

  it('keeps the first keyterms that fit a request line and the token budget', () => {
    const long = Array.from({ length: 50 }, (_, i) => `${'क'.repeat(60)}${String(i).padStart(4, '0')}`);
    const url = deepgramListenUrl({ ...config, model: 'nova-3' }, { languages: ['hi'], keyterms: long });
    const kept = query(url).getAll('keyterm');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(long.slice(0, kept.length));
    expect(url.length).toBeLessThan(5000);
    const short = Array.from({ length: 50 }, (_, i) => `term${i}`);
    expect(
      query(deepgramListenUrl({ ...config, model: 'nova-3' }, { languages: ['en'], keyterms: short })).getAll(
        'keyterm',
      ),
    ).toEqual(short);
  });

  it("takes the agent's model over the deployment's, and code-switches two languages on Nova-3 only", () => {
    let q = query(
      deepgramListenUrl({ ...config, model: 'nova-2' }, { languages: ['hinglish', 'en'], model: 'nova-3' }),
    );
    expect(q.get('model')).toBe('nova-3');
    expect(q.get('language')).toBe('multi');
    // Hinglish and Hindi are one language to a recogniser.
    q = query(deepgramListenUrl(config, { languages: ['hinglish', 'hi'], model: 'nova-3' }));
    expect(q.get('language')).toBe('hi');
    q = query(deepgramListenUrl({ ...config, model: 'nova-2' }, { languages: ['hinglish', 'en'] }));
    expect(q.get('model')).toBe('nova-2');
    expect(q.get('language')).toBe('hi');
  });

  it("passes the agent's options: smart_format, numerals and endpointing", () => {
    const q = query(
      deepgramListenUrl(config, {
        languages: ['en'],
        providerOptions: { smart_format: true, numerals: false, endpointing_ms: 300, unknown_option: 'x' },
      }),
    );
    expect(q.get('smart_format')).toBe('true');
    expect(q.get('numerals')).toBe('false');
    expect(q.get('endpointing')).toBe('300');
    expect(q.has('unknown_option')).toBe(false);
    const plain = query(deepgramListenUrl(config, { languages: ['en'] }));
    expect(plain.get('endpointing')).toBe(String(ENDPOINT_SILENCE_MS));
    expect(plain.has('smart_format')).toBe(false);
  });
});

describe('DeepgramSttProvider', () => {
  it("reports each utterance's language from a code-switching stream's answers", async () => {
    script = (socket, seen) => {
      socket.on('message', (_data, isBinary) => {
        if (isBinary || seen.controls.at(-1) !== 'Finalize') return;
        const hindi = seen.controls.filter((c) => c === 'Finalize').length === 2;
        const final = JSON.parse(
          results(hindi ? 'हाँ, कल ठीक है।' : 'Yes, tomorrow works.', 0, seen.audioBytes / 8000, {
            is_final: true,
            from_finalize: true,
          }),
        ) as { channel: { alternatives: { languages?: string[]; words?: { language: string }[] }[] } };
        final.channel.alternatives[0].languages = hindi ? ['hi', 'en'] : ['en'];
        socket.send(JSON.stringify(final));
      });
    };
    const session = await new DeepgramSttProvider({ baseUrl, apiKey: 'dg-key', timeoutMs: 2000 }, FAST).open({
      languages: ['hinglish', 'en'],
      model: 'nova-3',
      keyterms: ['Acme'],
    });
    expect(connections[0].url.searchParams.get('language')).toBe('multi');
    expect(connections[0].url.searchParams.getAll('keyterm')).toEqual(['Acme']);
    speak(session, 300);
    await expect(session.finish()).resolves.toBe('Yes, tomorrow works.');
    expect(session.language).toBe('en');
    speak(session, 300);
    await expect(session.finish()).resolves.toBe('हाँ, कल ठीक है।');
    expect(session.language).toBe('hinglish');
    await session.close();
  });

  it('streams mu-law with the query and token Deepgram expects, and returns the finals on Finalize', async () => {
    // Interim then final for what has arrived; the rest comes back from_finalize.
    script = (socket, seen) => {
      let sentInterim = false;
      let finalizedTo = 0.5;
      socket.on('message', (_data, isBinary) => {
        if (isBinary && !sentInterim && seen.audioBytes >= 4000) {
          sentInterim = true;
          socket.send(results('hello I', 0, 0.5));
          socket.send(results('Hello, I would like', 0, 0.5, { is_final: true }));
        }
        if (!isBinary && seen.controls.at(-1) === 'Finalize') {
          // Finalises the audio since the last final: the rest of the sentence, then (second utterance) nothing.
          const sent = seen.audioBytes / 8000;
          const text = finalizedTo === 0.5 ? 'to book a table.' : '';
          socket.send(
            results(text, finalizedTo, sent - finalizedTo, { is_final: true, from_finalize: true }),
          );
          finalizedTo = sent;
        }
      });
    };
    const session = await provider().open({ languages: ['hinglish'] });
    const interims: string[] = [];
    session.onPartial = (text) => interims.push(text);
    speak(session, 1000);
    await until(() => interims.length > 0);
    await expect(session.finish()).resolves.toBe('Hello, I would like to book a table.');
    // The words so far: the interim, then (when it came before the Finalize) the final that covers it.
    expect(interims[0]).toBe('hello I');
    expect(interims.slice(1).every((t) => t === 'Hello, I would like')).toBe(true);

    const seen = connections[0];
    expect(seen.auth).toBe('Token dg-key');
    expect(seen.url.pathname).toBe('/v1/listen');
    expect(Object.fromEntries(seen.url.searchParams)).toMatchObject({
      encoding: 'mulaw',
      sample_rate: '8000',
      interim_results: 'true',
      endpointing: String(ENDPOINT_SILENCE_MS),
      language: 'hi',
      model: 'nova-2',
    });
    expect(seen.audioBytes).toBe(8000);

    // A second utterance on the same stream starts from nothing.
    speak(session, 500);
    await expect(session.finish()).resolves.toBe('');
    await session.close();
    await until(() => seen.controls.includes('CloseStream'));
  });

  it('answers at once when the finals already cover the audio, and after a grace when Finalize gets no answer', async () => {
    script = (socket, seen) => {
      socket.on('message', (_data, isBinary) => {
        // Deepgram's own endpointing finalises everything that has arrived; Finalize is ignored.
        if (isBinary && seen.audioBytes === 8000) {
          socket.send(results('Yes, that works.', 0, 1, { is_final: true, speech_final: true }));
        }
      });
    };
    const session = await provider().open({ languages: ['en'] });
    speak(session, 1000);
    await until(() => connections[0].audioBytes === 8000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let started = Date.now();
    await expect(session.finish()).resolves.toBe('Yes, that works.');
    expect(Date.now() - started).toBeLessThan(FINALIZE_GRACE_MS / 2);
    expect(connections[0].controls).not.toContain('Finalize');

    speak(session, 300);
    started = Date.now();
    await expect(session.finish()).resolves.toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(FINALIZE_GRACE_MS - 20);
    expect(connections[0].controls).toContain('Finalize');
    await session.close();
  });

  it('waits longer for a slow Finalize answer when Deepgram has words it has not finalised, and keeps them', async () => {
    script = (socket, seen) => {
      socket.on('message', (_data, isBinary) => {
        if (isBinary && seen.audioBytes === 8000) socket.send(results('Book a table', 0, 0.8));
        // The answer comes well past the short grace, as over a slow network.
        if (!isBinary && seen.controls.at(-1) === 'Finalize') {
          const end = seen.audioBytes / 8000;
          setTimeout(
            () =>
              socket.send(results('Book a table for two.', 0, end, { is_final: true, from_finalize: true })),
            FINALIZE_GRACE_MS + 300,
          );
        }
      });
    };
    const session = await provider().open({ languages: ['en'] });
    const interims: string[] = [];
    session.onPartial = (text) => interims.push(text);
    speak(session, 1000);
    await until(() => interims.length > 0);
    const started = Date.now();
    await expect(session.finish()).resolves.toBe('Book a table for two.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(FINALIZE_GRACE_MS + 280);
    await session.close();
  });

  it("answers the interim's words when Finalize gets no answer within the longer wait", async () => {
    script = (socket, seen) => {
      socket.on('message', (_data, isBinary) => {
        if (isBinary && seen.audioBytes === 4000) socket.send(results('Cancel my order', 0, 0.5));
      });
    };
    const session = await provider('dg-key', 2000, { ...FAST, finalizePendingWaitMs: 150 }).open({
      languages: ['en'],
    });
    const interims: string[] = [];
    session.onPartial = (text) => interims.push(text);
    speak(session, 500);
    await until(() => interims.length > 0);
    await expect(session.finish()).resolves.toBe('Cancel my order');
    // The next utterance starts clean: no words of the last one.
    speak(session, 200);
    await expect(session.finish()).resolves.toBe('');
    await session.close();
  });

  it('keeps an idle stream open with KeepAlive while the agent speaks, and drops late finals of the last utterance', async () => {
    let late: (() => void) | undefined;
    script = (socket, seen) => {
      socket.on('message', (_data, isBinary) => {
        // Finalize gets nothing now; the final for that audio comes only after the grace.
        if (!isBinary && seen.controls.at(-1) === 'Finalize') {
          const end = seen.audioBytes / 8000;
          late = () => socket.send(results('too late', 0, end, { is_final: true, speech_final: true }));
        }
      });
    };
    const session = await new DeepgramSttProvider(
      { baseUrl, apiKey: 'dg-key', timeoutMs: 2000 },
      { finalizeGraceMs: 50, keepAliveMs: 40 },
    ).open({ languages: ['en'] });
    speak(session, 200);
    await expect(session.finish()).resolves.toBe('');
    late?.();
    await until(() => connections[0].controls.filter((c) => c === 'KeepAlive').length >= 2);
    // The next utterance does not inherit the previous one's late final.
    speak(session, 200);
    await expect(session.finish()).resolves.toBe('');
    expect(connections[0].url.searchParams.has('model')).toBe(false);
    await session.close();
  });

  it('fails as ProviderError at once, without retrying, when the key is refused', async () => {
    script = () => undefined;
    const refused = await provider('wrong')
      .open({ languages: ['en'] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ provider: 'stt', name: 'deepgram' });
    expect((refused as Error).message).toContain('401');
    await sleep(150);
    expect(upgrades).toBe(1);
  });

  it('reconnects a stream dropped mid-utterance, replays the audio not yet final and answers the whole utterance', async () => {
    const okBefore = await reconnects('ok');
    let drop: (() => void) | undefined;
    script = (socket, seen) => {
      const first = connections.length === 1;
      socket.on('message', (_data, isBinary) => {
        // First stream: finalises the first 0.5 s of the 0.6 s it got; the network then cuts it.
        if (first && isBinary && seen.audioBytes === 4800) {
          socket.send(results('Hello, I would like', 0, 0.5, { is_final: true }));
          socket.send(results('to', 0.5, 0.1));
          drop = () => socket.terminate();
        }
        // Second stream: its own timeline starts at 0 with the replayed audio.
        if (!first && !isBinary && seen.controls.at(-1) === 'Finalize') {
          const sent = seen.audioBytes / 8000;
          socket.send(results('to book a table.', 0, sent, { is_final: true, from_finalize: true }));
        }
      });
    };
    const session = await provider().open({ languages: ['en'] });
    const interims: string[] = [];
    session.onPartial = (text) => interims.push(text);
    speak(session, 600);
    // Cut only once the final has arrived: a cut socket may lose what was in flight.
    await until(() => interims.length > 0);
    drop!();
    // The caller goes on speaking while the stream reconnects, and the utterance ends before it is back.
    speak(session, 400);
    await expect(session.finish()).resolves.toBe('Hello, I would like to book a table.');

    expect(connections).toHaveLength(2);
    expect(connections[1].url.search).toBe(connections[0].url.search);
    // The 0.1 s the first stream never finalised plus the 0.4 s spoken meanwhile, then Finalize.
    expect(connections[1].audioBytes).toBe(4000);
    expect(connections[1].controls).toEqual(['Finalize']);
    expect(connections[1].audioAtControl).toEqual([4000]);
    expect(await reconnects('ok')).toBe(okBefore + 1);
    expect(warnings).toHaveBeenCalledWith(expect.stringContaining('reconnect 1/3'));

    // The next utterance goes on the reconnected stream as usual.
    speak(session, 200);
    await expect(session.finish()).resolves.toBe('to book a table.');
    await session.close();
  });

  it('fails as ProviderError after the bounded attempts when the server keeps refusing or dropping', async () => {
    const failedBefore = await reconnects('failed');
    script = (socket) => {
      socket.on('message', () => {
        refuseWith = 503;
        socket.terminate();
      });
    };
    let session = await provider().open({ languages: ['en'] });
    speak(session, 200);
    let error = await session.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('503');
    expect(upgrades).toBe(1 + 3);
    expect(await reconnects('failed')).toBe(failedBefore + 3);
    // One warning per attempt, and one when it gives up.
    expect(warnings).toHaveBeenCalledTimes(4);
    expect(warnings).toHaveBeenLastCalledWith(expect.stringContaining('giving up'));
    await session.close();

    // A server that accepts each reconnect but drops it before answering anything gets no fresh attempts.
    refuseWith = undefined;
    upgrades = 0;
    script = (socket) => {
      socket.on('message', () => socket.close(1011, 'internal'));
    };
    session = await provider().open({ languages: ['en'] });
    speak(session, 200);
    error = await session.finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(upgrades).toBe(1 + 3);
    await session.close();

    // A key refused on reconnect is not tried again.
    upgrades = 0;
    script = (socket) => {
      socket.on('message', () => {
        refuseWith = 401;
        socket.terminate();
      });
    };
    session = await provider().open({ languages: ['en'] });
    speak(session, 200);
    error = await session.finish().catch((e: unknown) => e);
    expect((error as Error).message).toContain('401');
    expect(upgrades).toBe(1 + 1);
    await session.close();
  });

  it('gives up within the provider timeout', async () => {
    script = (socket) => {
      socket.on('message', () => {
        refuseWith = 503;
        socket.terminate();
      });
    };
    // Only the first backoff fits in the 150 ms timeout.
    const session = await provider('dg-key', 150, { reconnectBackoffMs: [20, 200, 400] }).open({
      languages: ['en'],
    });
    speak(session, 200);
    const started = Date.now();
    await expect(session.finish()).rejects.toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(200);
    expect(upgrades).toBe(1 + 1);
    await session.close();
  });

  it('never reconnects after its own close(), even one that interrupts a reconnect', async () => {
    script = () => undefined;
    let session = await provider().open({ languages: ['en'] });
    speak(session, 200);
    await session.close();
    await until(() => connections[0].controls.includes('CloseStream'));
    await sleep(150);
    expect(upgrades).toBe(1);

    upgrades = 0;
    script = (socket) => {
      socket.on('message', () => socket.terminate());
    };
    session = await provider('dg-key', 2000, { reconnectBackoffMs: [100] }).open({ languages: ['en'] });
    speak(session, 200);
    await sleep(30);
    await session.close();
    await sleep(200);
    expect(upgrades).toBe(1);
  });
});
