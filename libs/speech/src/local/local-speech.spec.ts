import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { levelDbfs, PcmBuffer, resamplePcm16, synthesizeOfflineSpeech } from '@vap/media';
import { ProviderError } from '../provider-error';
import type { TtsVoice } from '../tts-provider';
import { defaultPythonPath, localSpeechProblem } from './local-speech';
import { LocalSttProvider } from './local-stt.provider';
import { espeakArgs, espeakVoiceFor, LocalTtsProvider, parseEspeakVoices } from './local-tts.provider';
import { PocketSphinxPool } from './pocketsphinx-pool';
import { WavStreamReader } from './wav-stream';

// Real espeak-ng and PocketSphinx (Debian's espeak-ng, pocketsphinx-en-us, python3-pocketsphinx).
const AGENT_VOICE: TtsVoice = {
  providerVoiceId: 'en-us+m3',
  model: '',
  speed: 1,
  volume: 1,
  language: 'en-US',
};
const pythonPath = defaultPythonPath();

async function collect(chunks: AsyncIterable<Int16Array>): Promise<Int16Array> {
  const all = new PcmBuffer();
  for await (const chunk of chunks) all.write(chunk);
  return all.copy();
}

/** A caller's utterance at the call's 8 kHz: espeak-ng in a voice, rate and pitch of its own. */
function callerSays(text: string, args: string[]): Int16Array {
  const wav = execFileSync('espeak-ng', ['--stdout', '--stdin', ...args], { input: text });
  const reader = new WavStreamReader();
  const data = reader.push(wav);
  const pcm = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.length & ~1)));
  return resamplePcm16(pcm, reader.format!.sampleRate, 8000);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('local speech', () => {
  it('finds espeak-ng, the pocketsphinx module and its model here, and names what is missing', async () => {
    expect(await localSpeechProblem({ pythonPath, espeakPath: 'espeak-ng' })).toBeUndefined();
    const problem = await localSpeechProblem({ pythonPath, espeakPath: '/nonexistent/espeak-ng' });
    expect(problem).toContain('espeak-ng (/nonexistent/espeak-ng');
    expect(problem).toContain(
      'sudo apt-get install -y espeak-ng pocketsphinx pocketsphinx-en-us python3-pocketsphinx',
    );
  });
});

describe('LocalTtsProvider', () => {
  const tts = new LocalTtsProvider({ espeakPath: 'espeak-ng', timeoutMs: 5000 });

  it('maps catalog voices to espeak-ng voices, speed and volume to its rate and amplitude', () => {
    expect(espeakVoiceFor({ providerVoiceId: 'hi', language: 'hi-IN' })).toBe('hi');
    expect(espeakVoiceFor({ providerVoiceId: 'en-us+f2', language: 'en-US' })).toBe('en-us+f2');
    // Standing in for a cloud voice: its language, female or male as the id reads, the variant by the id.
    expect(espeakVoiceFor({ providerVoiceId: 'anushka', language: 'ta-IN' })).toBe('ta+f5');
    expect(espeakVoiceFor({ providerVoiceId: 'nova', language: 'en-IN' })).toBe('en-us+f1');
    expect(espeakVoiceFor({ providerVoiceId: 'en-IN-PrabhatNeural', language: 'hinglish' })).toBe('hi+m5');
    // Voices of one language and gender sound apart, as their providers' do.
    const female = ['alloy', 'coral', 'nova', 'shimmer'].map((id) =>
      espeakVoiceFor({ providerVoiceId: id, language: 'en-US' }),
    );
    expect(female.every((v) => /^en-us\+f[1-5]$/.test(v))).toBe(true);
    expect(new Set(female).size).toBeGreaterThan(1);
    // With the installation's voices known, an id that only looks like one is not taken for it.
    const known = parseEspeakVoices(
      execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' }),
      execFileSync('espeak-ng', ['--voices=variant'], { encoding: 'utf8' }),
    );
    expect(espeakVoiceFor({ providerVoiceId: 'ash', language: 'en-US' }, known)).toMatch(/^en-us\+m[1-7]$/);
    expect(espeakVoiceFor({ providerVoiceId: 'bn+f2', language: 'bn-IN' }, known)).toBe('bn+f2');
    expect(espeakVoiceFor({ providerVoiceId: 'en-IN-Chirp3-HD-Aoede', language: 'en-IN' }, known)).toMatch(
      /^en-us\+f[1-5]$/,
    );
    expect(espeakArgs({ ...AGENT_VOICE, speed: 1.2, volume: 0.5 })).toEqual([
      '--stdout',
      '--stdin',
      '-b',
      '1',
      '-v',
      'en-us+m3',
      '-s',
      '210',
      '-a',
      '50',
    ]);
  });

  it('speaks the text at 8 kHz, piece by piece', async () => {
    const pieces: Int16Array[] = [];
    for await (const piece of tts.synthesize({ text: 'Your order ships on Monday.', voice: AGENT_VOICE })) {
      pieces.push(piece.slice());
    }
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every((p) => p.length <= 800)).toBe(true);
    const samples = pieces.reduce((n, p) => n + p.length, 0);
    // About 1.5 s of speech at 8000 samples a second.
    expect(samples).toBeGreaterThan(8000);
    expect(samples).toBeLessThan(8000 * 4);
    const all = await collect(tts.synthesize({ text: 'Your order ships on Monday.', voice: AGENT_VOICE }));
    expect(levelDbfs(all)).toBeGreaterThan(-40);
  });

  it('speaks Hindi, Tamil and Bengali voices', async () => {
    for (const id of ['hi', 'ta', 'bn']) {
      const pcm = await collect(
        tts.synthesize({ text: 'नमस्ते', voice: { ...AGENT_VOICE, providerVoiceId: id, language: id } }),
      );
      expect(pcm.length).toBeGreaterThan(2000);
    }
  });

  it('kills espeak-ng when the caller stops listening', async () => {
    const controller = new AbortController();
    const text = 'This is a long answer that goes on. '.repeat(40);
    let pieces = 0;
    let pid: number | undefined;
    for await (const _piece of tts.synthesize({ text, voice: AGENT_VOICE }, controller.signal)) {
      pid ??= [...tts.running][0];
      if (++pieces === 3) controller.abort();
    }
    expect(pieces).toBe(3);
    expect(pid).toBeDefined();
    await until(() => !processAlive(pid!) && tts.running.size === 0);
  });

  it('fails as the provider when espeak-ng cannot run', async () => {
    const broken = new LocalTtsProvider({ espeakPath: '/nonexistent/espeak-ng', timeoutMs: 5000 });
    await expect(collect(broken.synthesize({ text: 'hello', voice: AGENT_VOICE }))).rejects.toThrow(
      /tts provider local failed: .*ENOENT/,
    );
    const unknown = new LocalTtsProvider({ espeakPath: 'espeak-ng', timeoutMs: 5000 });
    // An espeak-ng that cannot list its voices is asked for the voice as named, and says it has none.
    (unknown as unknown as { voices: Promise<undefined> }).voices = Promise.resolve(undefined);
    await expect(
      collect(unknown.synthesize({ text: 'hello', voice: { ...AGENT_VOICE, providerVoiceId: 'zz-nope' } })),
    ).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('LocalSttProvider', () => {
  const stt = new LocalSttProvider({ pythonPath, timeoutMs: 10_000, sttWorkers: 2 });
  afterAll(() => stt.close());

  it('hears a caller in another voice, rate and pitch than the agent: the words of the order and its digits', async () => {
    const session = await stt.open({ languages: ['en'] });
    const utterance = callerSays('where is my order one two three four five', [
      '-v',
      'en-us+m1',
      '-s',
      '150',
      '-p',
      '40',
    ]);
    for (let at = 0; at < utterance.length; at += 160) session.push(utterance.subarray(at, at + 160));
    const partial = await session.speculate!();
    expect(partial).toContain('order');
    const text = await session.finish();
    expect(text).toContain('order');
    expect(text).toMatch(/one two three four five/);
    expect(await session.finish()).toBe('');
    await session.close();
  });

  it("reads the platform's own synthetic speech (the sandbox callee) by the text it carries, not by ear", async () => {
    const session = await stt.open({ languages: ['en'] });
    const partials: string[] = [];
    session.onPartial = (text) => partials.push(text);
    const line = 'What are your opening hours on Sunday?';
    const utterance = await synthesizeOfflineSpeech(line, { voice: 'slt' });
    const decode = jest.spyOn(stt.pool, 'decode');
    for (let at = 0; at < utterance.length; at += 160) session.push(utterance.subarray(at, at + 160));
    expect(partials.at(-1)).toBe(line);
    expect(await session.speculate!()).toBe(line);
    expect(await session.finish()).toBe(line);
    // The recogniser was never asked; the next utterance, a person's, is heard by it again.
    expect(decode).not.toHaveBeenCalled();
    decode.mockRestore();
    await session.close();
  });

  it('keeps at most the longest utterance, and one that the caller gives up on fails with its reason', async () => {
    const session = await stt.open({ languages: ['en'] });
    const controller = new AbortController();
    controller.abort(new Error('barge-in'));
    session.push(new Int16Array(8000));
    await expect(session.finish(controller.signal)).rejects.toThrow('barge-in');
    const short = new LocalSttProvider({ pythonPath, timeoutMs: 10_000, sttWorkers: 1, maxUtteranceMs: 100 });
    const bounded = await short.open({ languages: ['en'] });
    bounded.push(new Int16Array(8000));
    // 100 ms kept of the second: what reaches the recogniser is 1600 samples at 16 kHz.
    expect((bounded as unknown as { utterance: { length: number } }).utterance.length).toBe(800);
    await short.close();
  });
});

describe('LocalSttProvider.warm', () => {
  it('has one recogniser loaded before the first utterance, the rest started as utterances need them', async () => {
    const provider = new LocalSttProvider({ pythonPath, timeoutMs: 10_000, sttWorkers: 2 });
    try {
      await provider.warm();
      expect(provider.pool.workerPids).toHaveLength(1);
      const [warmed] = provider.pool.workerPids;
      const session = await provider.open({ languages: ['en'] });
      session.push(new Int16Array(8000));
      expect(await session.finish()).toBe('');
      expect(provider.pool.workerPids).toEqual([warmed]);
    } finally {
      await provider.close();
    }
  });

  it('gives up on a recogniser that is not ready within the deadline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stuck-python-'));
    const stuck = join(dir, 'python3');
    writeFileSync(stuck, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const provider = new LocalSttProvider({ pythonPath: stuck, timeoutMs: 300, sttWorkers: 1 });
    try {
      await expect(provider.warm()).rejects.toThrow('the recogniser was not ready within 300 ms');
    } finally {
      await provider.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PocketSphinxPool', () => {
  it('runs at most `size` workers, refuses past its queue, and drops a queued request on abort', async () => {
    const pool = new PocketSphinxPool({ pythonPath, size: 1, maxQueue: 1 });
    try {
      await pool.warm();
      const second = new Int16Array(16000);
      const first = pool.decode(second);
      const controller = new AbortController();
      const queued = pool.decode(second, controller.signal);
      await expect(pool.decode(second)).rejects.toThrow(/busy/);
      // A speculation never queues: with no worker free it is refused at once.
      await expect(pool.decode(second, undefined, { idleOnly: true })).rejects.toThrow(/busy/);
      controller.abort(new Error('caller hung up'));
      await expect(queued).rejects.toThrow('caller hung up');
      expect(pool.queued).toBe(0);
      expect(await first).toEqual(expect.any(String));
      expect(pool.workerPids).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('fails the request of a worker that dies and replaces the worker', async () => {
    const pool = new PocketSphinxPool({ pythonPath, size: 1, maxQueue: 4 });
    try {
      await pool.warm();
      const [pid] = pool.workerPids;
      const lost = pool.decode(new Int16Array(16000 * 20));
      process.kill(pid, 'SIGKILL');
      await expect(lost).rejects.toThrow(/recogniser process exited \(signal SIGKILL\)/);
      expect(await pool.decode(new Int16Array(1600))).toBe('');
      expect(pool.workerPids).toHaveLength(1);
      expect(pool.workerPids[0]).not.toBe(pid);
    } finally {
      await pool.close();
    }
  });

  it('fails its queue when Python cannot load pocketsphinx', async () => {
    const pool = new PocketSphinxPool({ pythonPath: '/nonexistent/python3', size: 2, maxQueue: 4 });
    await expect(pool.decode(new Int16Array(1600))).rejects.toThrow(/could not start|exited/);
    await pool.close();
  });
});
