// One scripted phone call on carrier_b's media-stream protocol, for the turn-taking benchmark: the caller says the
// turns of its plan (turn-script.ts) in real time on the shared carrier clock, each speech frame carrying the code
// of its words (audio-code.ts). A finished question is said in one go; a split sentence with a mid-sentence pause;
// once the agent's answer has been heard for OVERLAP_AFTER_MS the caller says an acknowledgement over it, or makes
// a burst of noise. It waits for the agent to finish (and at least 3 s after any sound it made over the agent, so
// a held answer that resumes is seen resuming) before its next turn. It records when it did each thing and when
// each of the agent's speech frames and `clear`s arrived; turn-taking-report.ts judges what happened.
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import {
  FRAME_MS,
  MULAW_FRAME_BYTES,
  MULAW_SILENCE,
  mulawEncode,
  TELEPHONY_SAMPLE_RATE,
  whiteNoise,
} from '@vap/media';
import { markFrame } from './audio-code';
import { CarrierClock } from './carrier-clock';
import { isSpeechFrame, speechLikePcm } from './speech-like-audio';
import { OVERLAP_AFTER_MS, PIECES, PlannedTurn, transcriptOfPieces } from './turn-script';

/** After the caller's acknowledgement or noise, it waits at least this long before its next turn. */
export const AFTER_OVERLAP_WAIT_MS = 3000;
/** Level of the caller's speech and of its noise bursts, dBFS. */
const SPEECH_DBFS = -15;
const NOISE_DBFS = -12;

export interface ScriptedCallOptions {
  url: string;
  callId: string;
  /** The call's number in the round, which its audio codes carry. */
  callIndex: number;
  clock: CarrierClock;
  phase?: number;
  plan: PlannedTurn[];
  /** Silence before the first turn, ms. Default 500. */
  leadInMs?: number;
  /** The agent is done once no speech frame has arrived for this long. Default 400 ms. */
  quietMs?: number;
  /** Give up waiting for an answer after this long (the turn counts as unanswered). Default 15 s. */
  answerTimeoutMs?: number;
  connectTimeoutMs?: number;
}

/** One turn as the caller played it; times are performance.now() of the caller's process, ms. */
export interface ScriptedTurnRecord {
  kind: PlannedTurn['kind'];
  /** The transcript of the first part alone (incomplete turns), and of the whole utterance. */
  firstText: string;
  wholeText: string;
  pauseMs: number;
  overlap: 'backchannel' | 'noise' | null;
  /** First speech frame sent. */
  speechStartAt?: number;
  /** Last speech frame of the first half sent (incomplete turns): the pause starts after it. */
  pauseStartAt?: number;
  /** First speech frame of the rest sent. */
  pauseEndAt?: number;
  /** Last speech frame of the utterance sent: the end of the caller's speech. */
  speechEndAt?: number;
  /** The acknowledgement's or noise's first and last frames sent (unset when the agent never answered). */
  overlapStartAt?: number;
  overlapEndAt?: number;
  /** The agent said nothing within answerTimeoutMs of the end of the caller's speech. */
  unanswered: boolean;
}

export interface ScriptedCallResult {
  callId: string;
  callIndex: number;
  turns: ScriptedTurnRecord[];
  /** Arrival of each of the agent's speech frames (not filler silence), ms, ascending. */
  agentSpeechAt: number[];
  /** Arrival of each `clear` the platform sent. */
  clearsAt: number[];
  /** Every agent media frame received, speech or filler. */
  agentFrames: number;
  endedBy: 'caller' | 'agent';
  error?: string;
}

// Frames are made once per piece and length in this process, then copied per call with the call's code.
const speechCache = new Map<string, Buffer[]>();
const noiseCache = new Map<number, Buffer[]>();
const frameSamples = (TELEPHONY_SAMPLE_RATE * FRAME_MS) / 1000;

function framesOf(pcm: Int16Array): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at + frameSamples <= pcm.length; at += frameSamples) {
    frames.push(mulawEncode(pcm.subarray(at, at + frameSamples)));
  }
  return frames;
}

/** `frames` frames of speech-like audio saying piece `piece` of call `callIndex`. */
export function pieceFrames(callIndex: number, piece: number, frames: number): Buffer[] {
  const key = `${piece}/${frames}`;
  let base = speechCache.get(key);
  if (!base) {
    // Each piece sounds a little different (its own breath noise and pitch).
    const pcm = speechLikePcm((frames * FRAME_MS) / 1000, TELEPHONY_SAMPLE_RATE, {
      dbfs: SPEECH_DBFS,
      seed: 101 + piece,
      pitchHz: 150 + ((piece * 13) % 70),
    });
    speechCache.set(key, (base = framesOf(pcm)));
  }
  return base.map((frame) => markFrame(frame, { call: callIndex, piece }));
}

/** `frames` frames of loud white noise: sound with no words. */
export function noiseFrames(frames: number): Buffer[] {
  let noise = noiseCache.get(frames);
  if (!noise)
    noiseCache.set(frames, (noise = framesOf(whiteNoise(frames * frameSamples, NOISE_DBFS, 29 + frames))));
  return noise;
}

const SILENCE = Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE);

// Each frame is sent once per call; the silence frame many times.
const base64Of = new WeakMap<Buffer, string>();
function base64(frame: Buffer): string {
  let encoded = base64Of.get(frame);
  if (encoded === undefined) base64Of.set(frame, (encoded = frame.toString('base64')));
  return encoded;
}

const MEDIA_PREFIX = '{"event":"media"';
const PAYLOAD_KEY = '"payload":"';

function mediaPayloadOf(text: string): string | undefined {
  if (!text.startsWith(MEDIA_PREFIX)) return undefined;
  const at = text.indexOf(PAYLOAD_KEY);
  if (at < 0) return undefined;
  const start = at + PAYLOAD_KEY.length;
  const end = text.indexOf('"', start);
  return end < 0 ? undefined : text.slice(start, end);
}

/** What the caller sends, frame by frame, for one utterance, and where its pause lies. */
interface UtteranceAudio {
  frames: Buffer[];
  /** Index of the first half's last frame and of the rest's first (incomplete turns). */
  firstHalfEnd: number;
  restStart: number;
}

function utteranceAudio(callIndex: number, turn: PlannedTurn): UtteranceAudio {
  const first = pieceFrames(callIndex, turn.parts[0].piece, turn.parts[0].frames);
  if (turn.parts.length === 1) return { frames: first, firstHalfEnd: -1, restStart: -1 };
  const rest = pieceFrames(callIndex, turn.parts[1].piece, turn.parts[1].frames);
  const pause = new Array<Buffer>(turn.pauseFrames).fill(SILENCE);
  return {
    frames: [...first, ...pause, ...rest],
    firstHalfEnd: first.length - 1,
    restStart: first.length + pause.length,
  };
}

type Phase = 'lead-in' | 'utterance' | 'answer' | 'overlap' | 'done';

/** Runs one call to its end; never rejects (a failed call comes back with `error`). */
export function runScriptedCall(options: ScriptedCallOptions): Promise<ScriptedCallResult> {
  const quietMs = options.quietMs ?? 400;
  const answerTimeoutMs = options.answerTimeoutMs ?? 15_000;
  const leadInFrames = Math.round((options.leadInMs ?? 500) / FRAME_MS);
  const streamSid = `MZ${randomBytes(16).toString('hex')}`;
  const callSid = `CA${randomBytes(16).toString('hex')}`;
  const accountSid = 'ACbench';
  const result: ScriptedCallResult = {
    callId: options.callId,
    callIndex: options.callIndex,
    turns: options.plan.map((turn) => ({
      kind: turn.kind,
      firstText: PIECES[turn.parts[0].piece].text,
      wholeText: transcriptOfPieces(turn.parts.map((p) => p.piece)),
      pauseMs: turn.pauseFrames * FRAME_MS,
      overlap: turn.overlap?.kind ?? null,
      unanswered: false,
    })),
    agentSpeechAt: [],
    clearsAt: [],
    agentFrames: 0,
    endedBy: 'caller',
  };

  return new Promise((resolve) => {
    const socket = new WebSocket(options.url, {
      handshakeTimeout: options.connectTimeoutMs ?? 10_000,
      perMessageDeflate: false,
    });
    let unsubscribe: (() => void) | undefined;
    let phase: Phase = 'lead-in';
    let sequenceNumber = 0;
    let chunk = 0;
    let leadIn = 0;
    let turnIndex = -1;
    let audio: UtteranceAudio | undefined;
    let overlapAudio: Buffer[] = [];
    let at = 0;
    // The wait for the agent's answer to the current turn.
    let waitingSince = 0;
    let answerFirstSpeech: number | undefined;
    let agentLastSpeech = 0;
    let overlapDone = false;
    let notBefore = 0;
    let settled = false;

    const finish = (endedBy: 'caller' | 'agent', error?: string) => {
      if (settled) return;
      settled = true;
      phase = 'done';
      unsubscribe?.();
      result.endedBy = endedBy;
      if (error) result.error = error;
      if (socket.readyState === WebSocket.OPEN) socket.close(1000);
      else if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      resolve(result);
    };
    const send = (message: object) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const sendMedia = (payload: Buffer) => {
      chunk++;
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(
        `{"event":"media","sequenceNumber":"${++sequenceNumber}","streamSid":"${streamSid}","media":` +
          `{"track":"inbound","chunk":"${chunk}","timestamp":"${chunk * FRAME_MS}","payload":"${base64(payload)}"}}`,
      );
    };
    const hangUp = () => {
      send({
        event: 'stop',
        sequenceNumber: String(++sequenceNumber),
        streamSid,
        stop: { accountSid, callSid },
      });
      finish('caller');
    };
    const nextTurn = () => {
      turnIndex++;
      if (turnIndex >= options.plan.length) return hangUp();
      audio = utteranceAudio(options.callIndex, options.plan[turnIndex]);
      at = 0;
      phase = 'utterance';
    };
    /** The agent has answered and gone quiet (and any wait after the caller's overlap is over), or timed out. */
    const answerDone = (now: number): boolean => {
      if (now < notBefore) return false;
      if (answerFirstSpeech !== undefined) return now - agentLastSpeech >= quietMs;
      if (now - waitingSince < answerTimeoutMs) return false;
      result.turns[turnIndex].unanswered = true;
      return true;
    };

    const onFrame = (now: number) => {
      const turn = result.turns[turnIndex];
      switch (phase) {
        case 'lead-in':
          sendMedia(SILENCE);
          if (++leadIn >= leadInFrames) nextTurn();
          return;
        case 'utterance': {
          const frames = audio!.frames;
          sendMedia(frames[at]);
          if (at === 0) turn.speechStartAt = now;
          if (at === audio!.firstHalfEnd) turn.pauseStartAt = now;
          if (at === audio!.restStart) turn.pauseEndAt = now;
          if (++at < frames.length) return;
          turn.speechEndAt = now;
          phase = 'answer';
          waitingSince = now;
          answerFirstSpeech = undefined;
          overlapDone = false;
          notBefore = 0;
          return;
        }
        case 'answer': {
          sendMedia(SILENCE);
          const overlap = options.plan[turnIndex].overlap;
          if (
            overlap &&
            !overlapDone &&
            answerFirstSpeech !== undefined &&
            now - answerFirstSpeech >= OVERLAP_AFTER_MS
          ) {
            overlapAudio =
              overlap.kind === 'noise'
                ? noiseFrames(overlap.frames)
                : pieceFrames(options.callIndex, overlap.piece, overlap.frames);
            at = 0;
            phase = 'overlap';
            return;
          }
          if (answerDone(now)) nextTurn();
          return;
        }
        case 'overlap':
          sendMedia(overlapAudio[at]);
          if (at === 0) turn.overlapStartAt = now;
          if (++at < overlapAudio.length) return;
          turn.overlapEndAt = now;
          overlapDone = true;
          notBefore = now + AFTER_OVERLAP_WAIT_MS;
          phase = 'answer';
          return;
        case 'done':
          return;
      }
    };
    socket.on('open', () => {
      send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
      send({
        event: 'start',
        sequenceNumber: String(++sequenceNumber),
        streamSid,
        start: {
          accountSid,
          callSid,
          streamSid,
          tracks: ['inbound'],
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          customParameters: { callId: options.callId },
        },
      });
      unsubscribe = options.clock.subscribe(() => onFrame(performance.now()), options.phase ?? 0);
    });
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      const arrivedAt = performance.now();
      if (isBinary) return;
      const text = data.toString();
      const payload = mediaPayloadOf(text);
      if (payload !== undefined) {
        result.agentFrames++;
        if (!isSpeechFrame(Buffer.from(payload, 'base64'))) return;
        result.agentSpeechAt.push(arrivedAt);
        agentLastSpeech = arrivedAt;
        if (phase === 'answer' && answerFirstSpeech === undefined) answerFirstSpeech = arrivedAt;
        return;
      }
      let message: { event?: string; mark?: { name?: string } };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        return;
      }
      if (message.event === 'mark' && typeof message.mark?.name === 'string') {
        // Frames arrive paced in real time, so everything queued before the mark has played by now.
        send({
          event: 'mark',
          sequenceNumber: String(++sequenceNumber),
          streamSid,
          mark: { name: message.mark.name },
        });
      } else if (message.event === 'clear') {
        result.clearsAt.push(arrivedAt);
      }
    });
    socket.on('unexpected-response', (_req, res) =>
      finish('agent', `upgrade refused with HTTP ${res.statusCode}`),
    );
    socket.on('error', (err) => finish('agent', err.message));
    socket.on('close', (code) =>
      finish('agent', settled || code === 1000 ? undefined : `closed with ${code}`),
    );
  });
}
