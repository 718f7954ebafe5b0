/**
 * Local speech (eSpeak NG, PocketSphinx) on this machine, as calls use it: N concurrent calls, each a loop of
 * turns in which the caller says an utterance (frames pushed at the real-time pace, 20 ms each), the endpointer
 * ends it (finish()), and the agent's reply is synthesised and played out at the real-time pace. Measured:
 * - recogniser real-time factor: end-of-speech to final transcript, over the utterance's length (queueing
 *   included: what a call waits per second of speech);
 * - end of speech to final transcript (finish() called to its text), in ms;
 * - the voice's first audio (synthesize() called to its first 8 kHz piece), in ms.
 * The caller speaks with an eSpeak NG voice, rate and pitch other than the agent's; the providers are the ones
 * the voice service runs (libs/speech local), with its default recogniser pool (one process per CPU). Calls
 * start spread over the first seconds, so their utterances do not all end together. Also printed: how many of
 * the utterances' key words came back (a check that the recogniser heard speech, not a figure to compare).
 *
 * Usage: node dist/bench/bench/local-speech/run.js
 * Settings: BENCH_CALLS ("1 5 20"), BENCH_TURNS (3 per call), LOCAL_STT_WORKERS (one per CPU),
 * LOCAL_SPEECH_PYTHON, LOCAL_SPEECH_ESPEAK.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { resamplePcm16 } from '@vap/media';
import {
  LocalSttProvider,
  LocalTtsProvider,
  localSpeechProblem,
  localSpeechSettings,
  type TtsVoice,
  WavStreamReader,
} from '@vap/speech';
import { reportFigures } from '../support/figures';
import { ascending, figure, percentile } from '../support/percentiles';

const levels = (process.env.BENCH_CALLS ?? '1 5 20')
  .split(/[\s,]+/)
  .filter(Boolean)
  .map(Number);
const turns = Number(process.env.BENCH_TURNS ?? 3);
const FRAME = 160;
const FRAME_MS = 20;
const CALLER_VOICE = ['-v', 'en-us+m1', '-s', '150', '-p', '40'];
const AGENT_VOICE: TtsVoice = {
  providerVoiceId: 'en-us+m3',
  model: '',
  speed: 1,
  volume: 1,
  language: 'en-US',
};
/** What callers say, with the words the transcript should hold. */
const UTTERANCES: [string, string[]][] = [
  ['where is my order one two three four five', ['order', 'one', 'two', 'three', 'four', 'five']],
  ['I would like to cancel my subscription please', ['cancel', 'subscription', 'please']],
  ['can you send me the invoice for last month', ['send', 'invoice', 'month']],
  ['my account number is seven eight nine', ['account', 'number', 'seven', 'eight', 'nine']],
];
const REPLIES = [
  'Your order ships tomorrow morning and arrives on Friday.',
  'I have cancelled the subscription. Is there anything else I can help with?',
  'I sent the invoice to the email address on your account.',
  'Thank you. I found your account and I can see two open tickets.',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function callerSays(text: string): Int16Array {
  const wav = execFileSync(
    process.env.LOCAL_SPEECH_ESPEAK ?? 'espeak-ng',
    ['--stdout', '--stdin', ...CALLER_VOICE],
    {
      input: text,
    },
  );
  const reader = new WavStreamReader();
  const data = reader.push(wav);
  const pcm = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.length & ~1)));
  return resamplePcm16(pcm, reader.format!.sampleRate, 8000);
}

interface LevelResult {
  rtf: number[];
  finalMs: number[];
  firstAudioMs: number[];
  heard: number;
  expected: number;
  failures: number;
}

async function runCall(
  stt: LocalSttProvider,
  tts: LocalTtsProvider,
  audio: Int16Array[],
  offsetMs: number,
  call: number,
  out: LevelResult,
): Promise<void> {
  await sleep(offsetMs);
  const session = await stt.open({ languages: ['en'] });
  try {
    for (let turn = 0; turn < turns; turn++) {
      const which = (call + turn) % UTTERANCES.length;
      const pcm = audio[which];
      // The caller speaks: a frame every 20 ms, on the wall clock.
      const start = performance.now();
      for (let at = 0, n = 0; at < pcm.length; at += FRAME, n++) {
        session.push(pcm.subarray(at, at + FRAME));
        const due = start + (n + 1) * FRAME_MS - performance.now();
        if (due > 0) await sleep(due);
      }
      const endOfSpeech = performance.now();
      let text = '';
      try {
        text = await session.finish();
      } catch {
        out.failures++;
        continue;
      }
      const finalMs = performance.now() - endOfSpeech;
      out.finalMs.push(finalMs);
      out.rtf.push(finalMs / ((pcm.length / 8000) * 1000));
      const words = new Set(text.split(/\s+/));
      out.expected += UTTERANCES[which][1].length;
      out.heard += UTTERANCES[which][1].filter((w) => words.has(w)).length;
      // The agent answers: its first audio, then the rest played out at the real-time pace.
      const asked = performance.now();
      let first = true;
      let samples = 0;
      try {
        for await (const piece of tts.synthesize({ text: REPLIES[which], voice: AGENT_VOICE })) {
          if (first) {
            out.firstAudioMs.push(performance.now() - asked);
            first = false;
          }
          samples += piece.length;
        }
      } catch {
        out.failures++;
      }
      const playedFor = (samples / 8000) * 1000 - (performance.now() - asked);
      if (playedFor > 0) await sleep(playedFor);
    }
  } finally {
    await session.close();
  }
}

function p(values: number[], at: number, digits = 0): number | string {
  return figure(percentile(ascending(values), at), digits);
}

async function main(): Promise<void> {
  const settings = localSpeechSettings({
    STT_PROVIDER: 'local',
    TTS_PROVIDER: 'local',
    PROVIDER_TIMEOUT_MS: 60_000,
    LOCAL_SPEECH_PYTHON: process.env.LOCAL_SPEECH_PYTHON,
    LOCAL_SPEECH_ESPEAK: process.env.LOCAL_SPEECH_ESPEAK,
    LOCAL_STT_WORKERS: process.env.LOCAL_STT_WORKERS ? Number(process.env.LOCAL_STT_WORKERS) : undefined,
  });
  const problem = await localSpeechProblem(settings);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  console.log(
    `local speech: ${availableParallelism()} CPUs, ${settings.sttWorkers} recogniser processes, ` +
      `${turns} turns per call, load average ${loadavg()[0].toFixed(2)}`,
  );
  const audio = UTTERANCES.map(([text]) => callerSays(text));
  const stt = new LocalSttProvider(settings);
  const tts = new LocalTtsProvider(settings);
  // Not timed: the processes load the model once per replica, and espeak-ng's voice list is read once.
  await stt.pool.warm();
  for await (const piece of tts.synthesize({ text: 'warm', voice: AGENT_VOICE })) void piece;
  const rows = [];
  try {
    for (const calls of levels) {
      const out: LevelResult = { rtf: [], finalMs: [], firstAudioMs: [], heard: 0, expected: 0, failures: 0 };
      // Calls start spread over three seconds (an utterance's length), as calls arrive.
      await Promise.all(
        Array.from({ length: calls }, (_, call) =>
          runCall(stt, tts, audio, calls === 1 ? 0 : (call * 3000) / calls, call, out),
        ),
      );
      rows.push({
        calls,
        utterances: out.finalMs.length,
        'RTF p50': p(out.rtf, 50, 3),
        'RTF p90': p(out.rtf, 90, 3),
        'final p50 ms': p(out.finalMs, 50),
        'final p90 ms': p(out.finalMs, 90),
        'final p99 ms': p(out.finalMs, 99),
        'first audio p50 ms': p(out.firstAudioMs, 50),
        'first audio p90 ms': p(out.firstAudioMs, 90),
        'first audio p99 ms': p(out.firstAudioMs, 99),
        'key words heard': `${out.heard}/${out.expected}`,
        failures: out.failures,
      });
      const bench = `local-speech (${calls} calls)`;
      reportFigures([
        { bench, figure: 'recogniser RTF p50', value: percentile(ascending(out.rtf), 50), unit: 'ratio' },
        {
          bench,
          figure: 'end of speech to final p50',
          value: percentile(ascending(out.finalMs), 50),
          unit: 'ms',
        },
        {
          bench,
          figure: 'end of speech to final p90',
          value: percentile(ascending(out.finalMs), 90),
          unit: 'ms',
        },
        {
          bench,
          figure: 'voice first audio p50',
          value: percentile(ascending(out.firstAudioMs), 50),
          unit: 'ms',
        },
        {
          bench,
          figure: 'voice first audio p90',
          value: percentile(ascending(out.firstAudioMs), 90),
          unit: 'ms',
        },
      ]);
    }
  } finally {
    await stt.close();
  }
  console.table(rows);
}

void main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
