// One simulated phone call on carrier_b's media-stream protocol: it opens the stream as the carrier does
// (connected, start), streams the caller's audio in real time on the shared carrier clock (a turn of speech,
// then silence so the endpointer fires), echoes the agent's marks as played, and records every agent frame's
// arrival. The caller speaks only when the agent is quiet, so the benchmark measures pacing, not barge-in.
// With protocol `browser` it is a browser session instead (docs/voice.md, Browser stream protocol): the same
// caller audio as binary PCM16 16 kHz frames, the agent's binary frames received, marks echoed as `played`, and
// `{"type":"end"}` to hang up.
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { FRAME_MS } from '@vap/media';
import { CarrierClock } from './carrier-clock';
import { ReceivedFrame } from './agent-audio-analysis';
import { browserFrameFromMulaw, CallerAudio, isPcm16SpeechFrame, isSpeechFrame } from './speech-like-audio';

export interface SimulatedCallOptions {
  /** The stream URL with its token, as the answer markup would give it to the carrier. */
  url: string;
  callId: string;
  clock: CarrierClock;
  /** The call's offset into the carrier's 20 ms period, in clock slots (calls spread as a carrier's are). */
  phase?: number;
  audio: CallerAudio;
  /** Caller turns (speech then silence until the agent has answered). */
  turns: number;
  /** The agent greets first: wait for its intro before speaking. */
  expectIntro: boolean;
  /** The agent is done speaking once no speech frame has arrived for this long. Default 400 ms. */
  quietMs?: number;
  /**
   * Speech frames an answer has at least (what the fake speech server returns per synthesis, less a margin):
   * a stall of the agent's audio mid-answer is then waited out, not mistaken for the end of its answer.
   * Default 1.
   */
  minAnswerFrames?: number;
  /** Give up waiting for the agent after this long and go on (the turn counts as unanswered). Default 15 s. */
  answerTimeoutMs?: number;
  /** Bound on the WebSocket opening. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Frames sent per clock tick: the media clock runs this many times faster than real time (the voice service's
   * MEDIA_TIME_SCALE set alike), as a burst a tick. Default 1.
   */
  framesPerTick?: number;
  /**
   * After its turns the caller stays on the line, silent, until the stream has carried this much media (the
   * recording benchmark's long calls). Default 0: it hangs up after its last turn.
   */
  mediaSeconds?: number;
  /** The stream's protocol: a carrier_b call (default) or a browser session (`/browser/<id>`). */
  protocol?: 'carrier_b' | 'browser';
  /** The `Origin` header a browser session's page sends (browser protocol only). */
  origin?: string;
}

export interface SimulatedCallResult {
  callId: string;
  frames: ReceivedFrame[];
  marksEchoed: number;
  clears: number;
  /** From the caller's last speech frame of a turn to the agent's first speech frame after it, ms. */
  replyDelaysMs: number[];
  /**
   * Per turn, when the caller sent the turn's last voiced frame (performance.now() just before handing it to the
   * socket): where a provider's hearing of the turn's end is measured from.
   */
  turnEndsAt: number[];
  /** Turns (and an expected intro) the agent did not speak in within answerTimeoutMs. */
  unanswered: number;
  /** Who ended the stream: the caller after its last turn, or the agent's side closing it first. */
  endedBy: 'caller' | 'agent';
  /** Set when the stream failed (refused upgrade, socket error). */
  error?: string;
}

type Phase = 'greeting' | 'speaking' | 'awaiting' | 'holding' | 'done';

// The load generator shares the machine with the service it measures: its per-frame work is kept small. The
// caller's frames are fixed buffers, so each is base64-encoded once.
const base64Of = new WeakMap<Buffer, string>();
function base64(frame: Buffer): string {
  let encoded = base64Of.get(frame);
  if (encoded === undefined) base64Of.set(frame, (encoded = frame.toString('base64')));
  return encoded;
}

// A browser client's frames are fixed too: each caller frame is converted once.
const browserFrameOf = new WeakMap<Buffer, Buffer>();
function browserFrame(frame: Buffer): Buffer {
  let converted = browserFrameOf.get(frame);
  if (converted === undefined) browserFrameOf.set(frame, (converted = browserFrameFromMulaw(frame)));
  return converted;
}

interface BrowserMessage {
  type?: string;
  name?: string;
}

const MEDIA_PREFIX = '{"event":"media"';
const PAYLOAD_KEY = '"payload":"';

/** The payload of an agent media message in the form the platform writes it, without a full JSON parse. */
function mediaPayloadOf(text: string): string | undefined {
  if (!text.startsWith(MEDIA_PREFIX)) return undefined;
  const at = text.indexOf(PAYLOAD_KEY);
  if (at < 0) return undefined;
  const start = at + PAYLOAD_KEY.length;
  const end = text.indexOf('"', start);
  return end < 0 ? undefined : text.slice(start, end);
}

interface AgentMessage {
  event?: string;
  media?: { payload?: string };
  mark?: { name?: string };
}

/** Runs one call to its end; never rejects (a failed call comes back with `error`). */
export function runSimulatedCall(options: SimulatedCallOptions): Promise<SimulatedCallResult> {
  const quietMs = options.quietMs ?? 400;
  const minAnswerFrames = options.minAnswerFrames ?? 1;
  const answerTimeoutMs = options.answerTimeoutMs ?? 15_000;
  const framesPerTick = options.framesPerTick ?? 1;
  const mediaFrames = ((options.mediaSeconds ?? 0) * 1000) / FRAME_MS;
  const lastVoicedFrame = options.audio.lastVoicedFrame ?? options.audio.speechFrames.length - 1;
  const streamSid = `MZ${randomBytes(16).toString('hex')}`;
  const callSid = `CA${randomBytes(16).toString('hex')}`;
  const accountSid = 'ACbench';
  const browser = options.protocol === 'browser';
  const result: SimulatedCallResult = {
    callId: options.callId,
    frames: [],
    marksEchoed: 0,
    clears: 0,
    replyDelaysMs: [],
    turnEndsAt: [],
    unanswered: 0,
    endedBy: 'caller',
  };

  return new Promise((resolve) => {
    // Carriers do not compress media streams, and deflating 50 frames a second per call would load this process.
    const socket = new WebSocket(options.url, {
      handshakeTimeout: options.connectTimeoutMs ?? 10_000,
      perMessageDeflate: false,
      ...(browser && options.origin ? { headers: { origin: options.origin } } : {}),
    });
    let unsubscribe: (() => void) | undefined;
    let phase: Phase = options.expectIntro ? 'greeting' : 'speaking';
    let sequenceNumber = 0;
    let chunk = 0;
    let speechIndex = 0;
    let turnsDone = 0;
    // The answer the agent's frames belong to now (0: the intro), and its speech so far.
    let answer = 0;
    let answerSpeechFrames = 0;
    // When the current wait for the agent began, and when the agent last / first spoke during it.
    let waitingSince = performance.now();
    let agentFirstSpeech: number | undefined;
    let agentLastSpeech = 0;
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
      if (browser) {
        socket.send(browserFrame(payload));
        return;
      }
      // The same message JSON.stringify would write for carrier_b's media event, without building the object.
      socket.send(
        `{"event":"media","sequenceNumber":"${++sequenceNumber}","streamSid":"${streamSid}","media":` +
          `{"track":"inbound","chunk":"${chunk}","timestamp":"${chunk * FRAME_MS}","payload":"${base64(payload)}"}}`,
      );
    };
    const startWaiting = (now: number) => {
      waitingSince = now;
      agentFirstSpeech = undefined;
      answerSpeechFrames = 0;
    };
    /** The agent has said its answer and been quiet for quietMs since, or it did not answer in time. */
    const agentDone = (now: number): boolean => {
      const answered = agentFirstSpeech !== undefined && answerSpeechFrames >= minAnswerFrames;
      if (answered && now - agentLastSpeech >= quietMs) return true;
      if (now - waitingSince < answerTimeoutMs) return false;
      result.unanswered++;
      return true;
    };
    const hangUp = () => {
      if (browser) {
        send({ type: 'end' });
        finish('caller');
        return;
      }
      send({
        event: 'stop',
        sequenceNumber: String(++sequenceNumber),
        streamSid,
        stop: { accountSid, callSid },
      });
      finish('caller');
    };
    const afterAgent = () => {
      if (turnsDone >= options.turns) {
        if (chunk < mediaFrames) {
          phase = 'holding';
          return;
        }
        hangUp();
        return;
      }
      phase = 'speaking';
      speechIndex = 0;
    };

    const onFrame = (now: number) => {
      switch (phase) {
        case 'greeting':
          sendMedia(options.audio.silenceFrame);
          if (agentDone(now)) afterAgent();
          return;
        case 'speaking':
          if (speechIndex === lastVoicedFrame) result.turnEndsAt.push(performance.now());
          sendMedia(options.audio.speechFrames[speechIndex++]);
          if (speechIndex >= options.audio.speechFrames.length) {
            turnsDone++;
            answer++;
            phase = 'awaiting';
            startWaiting(now);
          }
          return;
        case 'awaiting':
          sendMedia(options.audio.silenceFrame);
          if (agentDone(now)) afterAgent();
          return;
        case 'holding':
          sendMedia(options.audio.silenceFrame);
          if (chunk >= mediaFrames) hangUp();
          return;
        case 'done':
          return;
      }
    };
    const onTick = () => {
      const now = performance.now();
      for (let i = 0; i < framesPerTick && phase !== 'done'; i++) onFrame(now);
    };
    const onAgentFrame = (speech: boolean, at: number) => {
      result.frames.push({ at, speech, answer });
      if (!speech) return;
      agentLastSpeech = at;
      answerSpeechFrames++;
      if (agentFirstSpeech === undefined && (phase === 'awaiting' || phase === 'greeting')) {
        agentFirstSpeech = at;
        if (phase === 'awaiting') result.replyDelaysMs.push(at - waitingSince);
      }
    };
    const onBrowserMessage = (data: WebSocket.RawData, isBinary: boolean, at: number) => {
      if (isBinary) {
        onAgentFrame(isPcm16SpeechFrame(data as Buffer), at);
        return;
      }
      let message: BrowserMessage;
      try {
        message = JSON.parse(data.toString()) as BrowserMessage;
      } catch {
        return;
      }
      if (message.type === 'mark' && typeof message.name === 'string') {
        // Frames arrive paced in real time, so everything received before the mark has played by now.
        send({ type: 'played', name: message.name });
        result.marksEchoed++;
      } else if (message.type === 'clear') {
        result.clears++;
      }
    };
    socket.on('open', () => {
      if (browser) {
        // The server speaks first (session.started); the client just streams its microphone.
        startWaiting(performance.now());
        unsubscribe = options.clock.subscribe(onTick, options.phase ?? 0);
        return;
      }
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
      startWaiting(performance.now());
      unsubscribe = options.clock.subscribe(onTick, options.phase ?? 0);
    });
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      const at = performance.now();
      if (browser) {
        onBrowserMessage(data, isBinary, at);
        return;
      }
      if (isBinary) return;
      const text = data.toString();
      const payload = mediaPayloadOf(text);
      let message: AgentMessage;
      if (payload !== undefined) {
        message = { event: 'media', media: { payload } };
      } else {
        try {
          message = JSON.parse(text) as AgentMessage;
        } catch {
          return;
        }
      }
      if (message.event === 'media' && typeof message.media?.payload === 'string') {
        onAgentFrame(isSpeechFrame(Buffer.from(message.media.payload, 'base64')), at);
      } else if (message.event === 'mark' && typeof message.mark?.name === 'string') {
        // Frames arrive paced in real time, so everything queued before the mark has played by now.
        send({
          event: 'mark',
          sequenceNumber: String(++sequenceNumber),
          streamSid,
          mark: { name: message.mark.name },
        });
        result.marksEchoed++;
      } else if (message.event === 'clear') {
        result.clears++;
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
