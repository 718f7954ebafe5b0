import { execFile, spawn } from 'node:child_process';
import { Resampler } from '@vap/media';
import { isoLanguageOf } from '../languages';
import { fliteVoiceFor, stableHash } from '../offline/offline-tts.provider';
import { substituteAliases } from '../pronunciation-match';
import { ProviderError } from '../provider-error';
import { RequestDeadline } from '../request-deadline';
import type { TtsProvider, TtsRequest, TtsVoice } from '../tts-provider';
import type { LocalSpeechSettings } from './local-speech';
import { WavStreamReader } from './wav-stream';

const SAMPLE_RATE = 8000;
/** Samples per yielded piece (100 ms), so barge-in stops the audio promptly. */
const PIECE_SAMPLES = SAMPLE_RATE / 10;
/** Text one espeak-ng run speaks at most; longer text is spoken in pieces cut at spaces. */
export const LOCAL_TTS_MAX_TEXT_CHARS = 2000;
/** espeak-ng's own rate in words per minute (speed 1). */
const BASE_WORDS_PER_MINUTE = 175;
/** Of espeak-ng's complaints, what goes into an error. */
const STDERR_CHARS = 300;
/** A voice name espeak-ng knows the shape of: a language (en-us, hi) and an optional variant (+m3, +f2). */
const VOICE_NAME = /^[a-z]{2,3}(-[a-z0-9]{1,8})*(\+[a-z0-9_]{1,16})?$/i;

/** The voices an espeak-ng installation has: its languages (en-us, hi) and variants (m3, f3, adam). */
export interface EspeakVoices {
  languages: ReadonlySet<string>;
  variants: ReadonlySet<string>;
}

/** Reads `espeak-ng --voices` and `--voices=variant` (the second column; the variant file's name). */
export function parseEspeakVoices(languages: string, variants: string): EspeakVoices {
  const rows = (text: string) =>
    text
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/));
  return {
    languages: new Set(rows(languages).flatMap((cols) => (cols[1] ? [cols[1].toLowerCase()] : []))),
    variants: new Set(
      rows(variants).flatMap((cols) => {
        const file = cols.find((c) => c.startsWith('!v/'));
        return file ? [file.slice(3).toLowerCase()] : [];
      }),
    ),
  };
}

function isEspeakVoice(id: string, known: EspeakVoices | undefined): boolean {
  if (!VOICE_NAME.test(id)) return false;
  if (!known) return true;
  const [language, variant] = id.toLowerCase().split('+');
  return known.languages.has(language) && (variant === undefined || known.variants.has(variant));
}

/**
 * The espeak-ng voice for a catalog voice: its own id when it is one (a local voice: `en-us+m3`, `hi`), else
 * (standing in for a voice whose provider has no key) the voice's language (English as en-us) with a female or
 * male variant as the offline engine reads the id (`nova` female, `onyx` male), which of them by the id. `known`: the installation's
 * voices, so a cloud voice's id that only looks like one (OpenAI's `ash`) is not taken for it.
 */
export function espeakVoiceFor(
  voice: Pick<TtsVoice, 'providerVoiceId' | 'language'>,
  known?: EspeakVoices,
): string {
  if (isEspeakVoice(voice.providerVoiceId, known)) return voice.providerVoiceId;
  const code = isoLanguageOf(voice.language || 'en');
  const language =
    code === 'en' || !/^[a-z]{2,3}$/.test(code) || (known && !known.languages.has(code)) ? 'en-us' : code;
  const variants = fliteVoiceFor(voice) === 'slt' ? FEMALE_VARIANTS : MALE_VARIANTS;
  const usable = known ? variants.filter((v) => known.variants.has(v)) : variants;
  const variant = usable.length ? usable[stableHash(voice.providerVoiceId) % usable.length] : undefined;
  return variant ? `${language}+${variant}` : language;
}

/**
 * eSpeak NG's female and male variants that stand in for cloud voices, one per voice id, so two voices of one
 * language and gender sound apart as their providers' do.
 */
const FEMALE_VARIANTS = ['f1', 'f2', 'f3', 'f4', 'f5'];
const MALE_VARIANTS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];

/** espeak-ng's arguments for a voice: -s words per minute from speed, -a amplitude from volume. */
export function espeakArgs(voice: TtsVoice, known?: EspeakVoices): string[] {
  const wpm = Math.round(BASE_WORDS_PER_MINUTE * Math.min(3, Math.max(0.5, voice.speed || 1)));
  const amplitude = Math.round(100 * Math.min(2, Math.max(0, voice.volume ?? 1)));
  return [
    '--stdout',
    '--stdin',
    '-b',
    '1',
    '-v',
    espeakVoiceFor(voice, known),
    '-s',
    String(wpm),
    '-a',
    String(amplitude),
  ];
}

/** The text cut at spaces into pieces of at most `max` characters. */
function textPieces(text: string, max = LOCAL_TTS_MAX_TEXT_CHARS): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const cut = space > 0 ? space : max;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * eSpeak NG on this machine: one `espeak-ng --stdout` per request, the text on its stdin. Its WAV (22050 Hz) is
 * read as it streams, resampled to 8 kHz and yielded piece by piece, so the first audio goes out before the rest
 * is synthesised. Barge-in or the deadline kills the process.
 */
export class LocalTtsProvider implements TtsProvider {
  readonly name = 'local' as const;

  /** The espeak-ng processes running now (their ids): an abort ends its process. */
  readonly running = new Set<number>();

  /** The installation's voices, read once (undefined when they could not be: every id that looks right is tried). */
  private voices?: Promise<EspeakVoices | undefined>;

  constructor(private readonly settings: Pick<LocalSpeechSettings, 'espeakPath' | 'timeoutMs'>) {}

  private knownVoices(): Promise<EspeakVoices | undefined> {
    const list = (arg: string) =>
      new Promise<string>((resolve, reject) =>
        execFile(this.settings.espeakPath, [arg], { timeout: 5000, maxBuffer: 1 << 20 }, (error, out) =>
          error ? reject(error) : resolve(out),
        ),
      );
    this.voices ??= Promise.all([list('--voices'), list('--voices=variant')]).then(
      ([languages, variants]) => parseEspeakVoices(languages, variants),
      () => undefined,
    );
    return this.voices;
  }

  async *synthesize(
    { text, voice, pronunciations }: TtsRequest,
    signal?: AbortSignal,
  ): AsyncIterable<Int16Array> {
    if (signal?.aborted) return;
    // One line: espeak-ng reads stdin a line at a time and pauses at each.
    const spoken = substituteAliases(text, pronunciations).replace(/\s+/g, ' ').trim();
    const known = await this.knownVoices();
    for (const piece of textPieces(spoken)) {
      yield* this.speak(piece, voice, known, signal);
      if (signal?.aborted) return;
    }
  }

  private async *speak(
    text: string,
    voice: TtsVoice,
    known: EspeakVoices | undefined,
    signal?: AbortSignal,
  ): AsyncIterable<Int16Array> {
    const deadline = new RequestDeadline('synthesis', this.settings.timeoutMs, signal);
    const child = spawn(this.settings.espeakPath, espeakArgs(voice, known), {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid !== undefined) this.running.add(pid);
    child.on('close', () => pid !== undefined && this.running.delete(pid));
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (data: string) => {
      if (stderr.length < STDERR_CHARS) stderr += data.slice(0, STDERR_CHARS - stderr.length);
    });
    // A process that cannot start, or whose stdin closes early, reports it at exit.
    let spawnError: Error | undefined;
    child.on('error', (error) => {
      spawnError = new Error(`${this.settings.espeakPath} could not run (${error.message})`);
      deadline.signal.removeEventListener('abort', kill);
    });
    child.stdin.on('error', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const kill = () => child.kill('SIGKILL');
    deadline.signal.addEventListener('abort', kill, { once: true });
    child.stdin.end(`${text}\n`);
    const wav = new WavStreamReader();
    let resampler: Resampler | undefined;
    let odd: Buffer | undefined;
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        deadline.pause();
        let bytes = wav.push(chunk);
        if (!wav.format || bytes.length === 0) continue;
        resampler ??= new Resampler(wav.format.sampleRate, SAMPLE_RATE);
        if (odd) bytes = Buffer.concat([odd, bytes]);
        const even = bytes.length & ~1;
        odd = even < bytes.length ? Buffer.from(bytes.subarray(even)) : undefined;
        const pcm = resampler.pushBytes(bytes, 0, even);
        for (let at = 0; at < pcm.length; at += PIECE_SAMPLES) {
          yield pcm.subarray(at, at + PIECE_SAMPLES);
          if (deadline.signal.aborted) break;
        }
        if (deadline.signal.aborted) break;
        deadline.arm();
      }
      if (deadline.signal.aborted) {
        if (deadline.callerAborted) return;
        throw deadline.timeout ?? new Error('stopped');
      }
      const code = await exited;
      if (spawnError) throw spawnError;
      if (code !== 0)
        throw new Error(`espeak-ng exited with code ${code}${stderr ? `: ${stderr.trim()}` : ''}`);
      if (!wav.format) throw new Error(`espeak-ng wrote no audio${stderr ? `: ${stderr.trim()}` : ''}`);
      const tail = resampler?.flush();
      if (tail?.length) yield tail;
    } catch (error) {
      if (deadline.callerAborted) return;
      if (!spawnError) await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))]);
      throw new ProviderError('tts', this.name, deadline.timeout ?? spawnError ?? error);
    } finally {
      deadline.signal.removeEventListener('abort', kill);
      deadline.release();
      // The consumer stopped listening (barge-in) or something failed: the process has nothing more to do.
      if (child.exitCode === null && child.signalCode === null) kill();
    }
  }
}
