// What the fake streaming TTS providers share: a text's speech in the sample format a request asked for, cut
// into several chunks that go out one by one (so a client's first audio can be seen before the last chunk).
import { setTimeout as sleep } from 'node:timers/promises';
import { mulawEncode } from '@vap/media';
import WebSocket from 'ws';
import { pcmBytes, speechPcm } from './fake-provider-server';

export type FakeEncoding = 'pcm_s16le' | 'pcm_f32le' | 'pcm_mulaw';

/** The text as speech (see speechPcm) at `sampleRate`, encoded, in `count` chunks of about equal size. */
export async function speechChunks(
  text: string,
  sampleRate: number,
  encoding: FakeEncoding,
  count: number,
): Promise<Buffer[]> {
  const pcm = await speechPcm(text, sampleRate);
  let bytes: Buffer;
  let sampleBytes: number;
  if (encoding === 'pcm_mulaw') {
    bytes = mulawEncode(pcm);
    sampleBytes = 1;
  } else if (encoding === 'pcm_f32le') {
    bytes = Buffer.alloc(pcm.length * 4);
    pcm.forEach((sample, i) => bytes.writeFloatLE(sample / 32768, i * 4));
    sampleBytes = 4;
  } else {
    bytes = Buffer.from(pcmBytes(pcm));
    sampleBytes = 2;
  }
  const samples = bytes.length / sampleBytes;
  const per = Math.max(1, Math.ceil(samples / Math.max(1, count)));
  const chunks: Buffer[] = [];
  for (let at = 0; at < samples; at += per) {
    chunks.push(bytes.subarray(at * sampleBytes, Math.min(samples, at + per) * sampleBytes));
  }
  return chunks;
}

/** Waits between two chunks: the time a provider takes to synthesize the next one (0: the next tick). */
export function chunkPause(ms: number): Promise<void> {
  return ms > 0 ? sleep(ms).then(() => undefined) : new Promise((resolve) => setImmediate(resolve));
}

/** Text of SSML-parsed input as spoken: tags dropped (a phoneme's word stays), entities decoded. */
export function ssmlText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(lt|gt|quot|apos|amp);/g,
      (_m, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] as string,
    );
}

/** What a raw client saw on a socket: the JSON frames, and how it closed (or the refusal's HTTP status). */
export interface SocketTranscript {
  frames: Record<string, unknown>[];
  close?: { code: number; reason: string };
  refused?: number;
}

/**
 * Connects to a fake's socket as a plain client, sends `messages` (objects as JSON, strings as they are) and
 * records the answers until the fake closes, or until `until` holds of the frames so far (for a protocol whose
 * socket stays open), or at the latest when `ms` passes: for tests of a fake's protocol itself.
 */
export async function talkTo(
  url: string,
  headers: Record<string, string>,
  messages: unknown[],
  ms = 3000,
  until?: (frames: Record<string, unknown>[]) => boolean,
): Promise<SocketTranscript> {
  const ws = new WebSocket(url, { headers });
  const transcript: SocketTranscript = { frames: [] };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      ws.terminate();
      resolve(transcript);
    }, ms);
    const done = () => {
      clearTimeout(timer);
      resolve(transcript);
    };
    ws.on('unexpected-response', (_req, res) => {
      transcript.refused = res.statusCode;
      res.resume();
      ws.on('error', () => undefined);
      ws.terminate();
      done();
    });
    ws.on('error', () => done());
    ws.on('open', () => {
      for (const message of messages)
        ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    });
    ws.on('message', (data) => {
      transcript.frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      if (until?.(transcript.frames)) {
        ws.close();
        done();
      }
    });
    ws.on('close', (code, reason) => {
      transcript.close = { code, reason: reason.toString() };
      done();
    });
  });
}
