import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { waitFor } from '@vap/testing';
import { carrierBMark, carrierBMedia, FrameClock, parseCarrierBMessage } from '@vap/media';
import { analyseAgentAudio } from './agent-audio-analysis';
import { CarrierClock } from './carrier-clock';
import { runFleetRound } from './caller-fleet';
import { runSimulatedCall } from './simulated-caller';
import { browserFrameFromMulaw, callerAudio, isPcm16SpeechFrame, isSpeechFrame } from './speech-like-audio';

interface AgentBehaviour {
  intro: boolean;
  /** Frames per answer (0: never answers). */
  answerFrames: number;
  /** Hold the answer's second half back this long (a stalled pipeline). */
  stallMs?: number;
  /** Close the socket after this many answers. */
  hangUpAfter?: number;
}

/** What the fake agent saw of the caller's stream. */
interface AgentLog {
  events: string[];
  marksEchoed: string[];
  mediaFrames: number;
}

/**
 * A minimal agent on the platform side of carrier_b's protocol: answers each caller utterance (speech, then
 * 200 ms of silence) with paced speech frames and a mark, sending filler silence in between as FrameClock does.
 */
function startFakeAgent(
  behaviour: AgentBehaviour,
): Promise<{ url: string; log: AgentLog; close(): Promise<void> }> {
  const log: AgentLog = { events: [], marksEchoed: [], mediaFrames: 0 };
  const speech = callerAudio(behaviour.answerFrames * 0.02 || 0.02, -18, 11).speechFrames;
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket: WebSocket) => {
    let streamSid = '';
    let heardSpeech = false;
    let silentFrames = 0;
    let answers = 0;
    const clock = new FrameClock({
      send: (frame) => socket.send(JSON.stringify(carrierBMedia(streamSid, frame))),
    });
    const speak = () => {
      const stallMs = behaviour.stallMs ?? 0;
      const half = stallMs ? speech.length / 2 : speech.length;
      for (const frame of speech.slice(0, half)) clock.enqueue(frame);
      if (half < speech.length) {
        setTimeout(() => {
          for (const frame of speech.slice(half)) clock.enqueue(frame);
          clock.endUtterance();
        }, stallMs);
      } else {
        clock.endUtterance();
      }
      // The mark goes after the audio: queue it once the frames would have been sent.
      setTimeout(
        () => {
          if (socket.readyState !== WebSocket.OPEN) return;
          socket.send(JSON.stringify(carrierBMark(streamSid, `said-${answers}`)));
          if (behaviour.hangUpAfter !== undefined && answers >= behaviour.hangUpAfter) socket.close(1000);
        },
        speech.length * 20 + 40 + stallMs,
      );
    };
    socket.on('message', (data) => {
      const parsed = parseCarrierBMessage(data.toString());
      if (!parsed.ok) throw new Error(`caller sent a malformed frame: ${data.toString()}`);
      const message = parsed.message;
      log.events.push(message.event);
      if (message.event === 'start') {
        streamSid = message.streamSid;
        clock.start();
        if (behaviour.intro) speak();
      } else if (message.event === 'mark') {
        log.marksEchoed.push(message.mark.name);
      } else if (message.event === 'media') {
        log.mediaFrames++;
        if (isSpeechFrame(Buffer.from(message.media.payload, 'base64'))) {
          heardSpeech = true;
          silentFrames = 0;
        } else if (heardSpeech && ++silentFrames === 10) {
          heardSpeech = false;
          answers++;
          if (behaviour.answerFrames > 0) speak();
        }
      }
    });
    socket.on('close', () => clock.stop());
  });
  return new Promise((resolve) =>
    server.on('listening', () =>
      resolve({
        url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media/carrier_b/call-1?token=t`,
        log,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

/** What a fake browser endpoint saw of the client. */
interface BrowserLog {
  origin: string | undefined;
  audioFrames: number;
  frameBytes: Set<number>;
  played: string[];
  texts: string[];
}

/**
 * The platform side of the browser protocol, reduced: session.started first, then each caller utterance (speech,
 * then 200 ms of silence) answered with `answerFrames` paced PCM16 16 kHz frames and a mark.
 */
function startFakeBrowserEndpoint(
  answerFrames: number,
): Promise<{ url: string; log: BrowserLog; close(): Promise<void> }> {
  const log: BrowserLog = { origin: undefined, audioFrames: 0, frameBytes: new Set(), played: [], texts: [] };
  const speech = callerAudio(answerFrames * 0.02, -18, 11).speechFrames.map(browserFrameFromMulaw);
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket: WebSocket, req) => {
    log.origin = req.headers.origin;
    socket.send(JSON.stringify({ type: 'session.started', session_id: 's-1' }));
    let heardSpeech = false;
    let silentFrames = 0;
    let answers = 0;
    const speak = () => {
      const name = `said-${answers}`;
      let next = 0;
      const timer = setInterval(() => {
        if (socket.readyState !== WebSocket.OPEN) return clearInterval(timer);
        if (next < speech.length) return socket.send(speech[next++]);
        clearInterval(timer);
        socket.send(JSON.stringify({ type: 'mark', name }));
      }, 20);
    };
    socket.on('message', (data, isBinary) => {
      if (!isBinary) {
        const message = JSON.parse(data.toString()) as { type: string; name?: string };
        log.texts.push(message.type);
        if (message.type === 'played') log.played.push(message.name!);
        return;
      }
      const frame = data as Buffer;
      log.audioFrames++;
      log.frameBytes.add(frame.length);
      if (isPcm16SpeechFrame(frame)) {
        heardSpeech = true;
        silentFrames = 0;
      } else if (heardSpeech && ++silentFrames === 10) {
        heardSpeech = false;
        answers++;
        speak();
      }
    });
  });
  return new Promise((resolve) =>
    server.on('listening', () =>
      resolve({
        url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/browser/s-1?token=t`,
        log,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

describe('simulated caller', () => {
  const clock = new CarrierClock();
  // Short turns keep the spec quick; the pacing is real time as in the benchmark.
  const audio = callerAudio(0.3);
  beforeAll(() => clock.start());
  afterAll(() => clock.stop());

  it('waits for the intro, speaks its turns when the agent is quiet, echoes marks and ends with stop', async () => {
    const agent = await startFakeAgent({ intro: true, answerFrames: 15 });
    try {
      const result = await runSimulatedCall({
        url: agent.url,
        callId: 'call-1',
        clock,
        audio,
        turns: 2,
        expectIntro: true,
        quietMs: 200,
      });
      expect(result.error).toBeUndefined();
      expect(result.endedBy).toBe('caller');
      expect(result.unanswered).toBe(0);
      expect(result.replyDelaysMs).toHaveLength(2);
      // The fake agent answers after 200 ms of the caller's silence.
      for (const delay of result.replyDelaysMs) expect(delay).toBeGreaterThanOrEqual(150);
      expect(result.marksEchoed).toBe(3);
      expect(agent.log.marksEchoed).toEqual(['said-0', 'said-1', 'said-2']);
      expect(agent.log.events.slice(0, 2)).toEqual(['connected', 'start']);
      // The stop frame goes out just before the caller closes; the agent side reads it a moment later.
      await waitFor(() => agent.log.events.includes('stop'), { timeoutMs: 2000, description: 'stop' });
      expect(agent.log.events[agent.log.events.length - 1]).toBe('stop');
      // 15 frames of speech per reply + the caller's 2 x 15 frames of speech sent.
      expect(agent.log.mediaFrames).toBeGreaterThanOrEqual(30);
      const heard = analyseAgentAudio(result.frames);
      expect(heard.utterances).toBe(3);
      expect(heard.speechFrames).toBe(45);
      expect(heard.frames).toBeGreaterThan(heard.speechFrames); // filler silence between utterances
    } finally {
      await agent.close();
    }
  }, 20_000);

  it('as a browser session: sends its Origin and binary PCM16 frames, hears binary frames, echoes played, ends', async () => {
    const endpoint = await startFakeBrowserEndpoint(15);
    try {
      const result = await runSimulatedCall({
        url: endpoint.url,
        callId: 's-1',
        protocol: 'browser',
        origin: 'https://bench.example',
        clock,
        audio,
        turns: 2,
        expectIntro: false,
        quietMs: 200,
      });
      expect(result).toMatchObject({ endedBy: 'caller', unanswered: 0, marksEchoed: 2 });
      expect(result.error).toBeUndefined();
      expect(result.replyDelaysMs).toHaveLength(2);
      // Each turn's end was noted as its last frame went out, before the agent's answer to it arrived.
      expect(result.turnEndsAt).toHaveLength(2);
      const answers = [1, 2].map((n) => result.frames.find((f) => f.answer === n && f.speech)!.at);
      expect(result.turnEndsAt[0]).toBeLessThan(answers[0]);
      expect(result.turnEndsAt[1]).toBeGreaterThan(answers[0]);
      expect(result.turnEndsAt[1]).toBeLessThan(answers[1]);
      expect(endpoint.log.origin).toBe('https://bench.example');
      expect([...endpoint.log.frameBytes]).toEqual([640]);
      expect(endpoint.log.audioFrames).toBeGreaterThanOrEqual(30);
      await waitFor(() => endpoint.log.texts.includes('end'), { timeoutMs: 2000, description: 'end' });
      expect(endpoint.log.played).toEqual(['said-1', 'said-2']);
      expect(endpoint.log.texts).toEqual(['played', 'played', 'end']);
      const heard = analyseAgentAudio(result.frames);
      expect(heard).toMatchObject({ utterances: 2, speechFrames: 30 });
    } finally {
      await endpoint.close();
    }
  }, 20_000);

  it('waits out a stall in the middle of each answer, which the analysis counts as one underrun per answer', async () => {
    const agent = await startFakeAgent({ intro: true, answerFrames: 20, stallMs: 500 });
    try {
      const result = await runSimulatedCall({
        url: agent.url,
        callId: 'call-1',
        clock,
        audio,
        turns: 1,
        expectIntro: true,
        quietMs: 200,
        minAnswerFrames: 20,
      });
      expect(result.error).toBeUndefined();
      expect(result.unanswered).toBe(0);
      const heard = analyseAgentAudio(result.frames);
      expect(heard).toMatchObject({ utterances: 2, speechFrames: 40 });
      // The stall in each answer; a loaded host may add late frames of its own.
      expect(heard.underruns).toBeGreaterThanOrEqual(2);
      // The caller spoke only after the whole intro: its reply came after both halves.
      expect(result.frames.filter((f) => f.answer === 0 && f.speech)).toHaveLength(20);
    } finally {
      await agent.close();
    }
  }, 20_000);

  it('a long call at a fast media clock: frames go out in bursts, and after its turns the caller stays on silently', async () => {
    const agent = await startFakeAgent({ intro: false, answerFrames: 5 });
    try {
      const started = performance.now();
      const result = await runSimulatedCall({
        url: agent.url,
        callId: 'call-1',
        clock,
        audio,
        turns: 1,
        expectIntro: false,
        quietMs: 100,
        framesPerTick: 10,
        mediaSeconds: 20,
      });
      const wallMs = performance.now() - started;
      expect(result).toMatchObject({ endedBy: 'caller', unanswered: 0 });
      await waitFor(() => agent.log.events.includes('stop'), { timeoutMs: 2000, description: 'stop' });
      // Exactly 20 s of media (1,000 frames) whatever the turn took, 10 frames a 20 ms tick: about 2 s of wall time.
      expect(agent.log.mediaFrames).toBe(1000);
      expect(wallMs).toBeLessThan(10_000);
    } finally {
      await agent.close();
    }
  }, 20_000);

  it('counts turns the agent never answers and still ends the call', async () => {
    const agent = await startFakeAgent({ intro: false, answerFrames: 0 });
    try {
      const result = await runSimulatedCall({
        url: agent.url,
        callId: 'call-1',
        clock,
        audio,
        turns: 1,
        expectIntro: false,
        answerTimeoutMs: 400,
      });
      expect(result).toMatchObject({ unanswered: 1, endedBy: 'caller', replyDelaysMs: [] });
      expect(result.error).toBeUndefined();
    } finally {
      await agent.close();
    }
  });

  it('reports the agent side closing the stream first', async () => {
    const agent = await startFakeAgent({ intro: true, answerFrames: 5, hangUpAfter: 0 });
    try {
      const result = await runSimulatedCall({
        url: agent.url,
        callId: 'call-1',
        clock,
        audio,
        turns: 3,
        expectIntro: true,
      });
      expect(result.endedBy).toBe('agent');
      expect(result.error).toBeUndefined();
    } finally {
      await agent.close();
    }
  });

  it('comes back with the refusal when the upgrade is refused', async () => {
    const server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      verifyClient: (_info, done) => done(false, 403, 'Forbidden'),
    });
    await new Promise((resolve) => server.on('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await runSimulatedCall({
        url: `ws://127.0.0.1:${port}/media/carrier_b/x?token=bad`,
        callId: 'x',
        clock,
        audio,
        turns: 1,
        expectIntro: false,
      });
      expect(result.error).toBe('upgrade refused with HTTP 403');
      expect(result.frames).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("runs a fleet round: every call to its end, in order, with the fleet's own loop delay and stalls", async () => {
    const agent = await startFakeAgent({ intro: true, answerFrames: 10 });
    const stallsBefore = clock.stalls;
    const roundStart = performance.now();
    try {
      const round = await runFleetRound(
        {
          calls: ['a', 'b', 'c'].map((callId) => ({ url: agent.url, callId })),
          rampMs: 90,
          turns: 1,
          expectIntro: true,
          minAnswerFrames: 10,
        },
        clock,
      );
      expect(round.results.map((r) => r.callId)).toEqual(['a', 'b', 'c']);
      for (const result of round.results) {
        expect(result).toMatchObject({ endedBy: 'caller', unanswered: 0 });
        expect(analyseAgentAudio(result.frames)).toMatchObject({ utterances: 2, speechFrames: 20 });
      }
      // Ramped: call i opens its stream 30 ms after call i-1, so its first agent frame cannot come before then
      // (a lower bound: the gaps between first frames themselves vary with a loaded host's scheduling).
      const firsts = round.results.map((r) => r.frames[0].at - roundStart);
      expect(firsts[1]).toBeGreaterThanOrEqual(29); // timers may fire up to a millisecond early
      expect(firsts[2]).toBeGreaterThanOrEqual(59);
      expect(round.loopDelayP99Ms).toBeGreaterThanOrEqual(0);
      // Only this round's stalls (a loaded host may cause some).
      expect(round.clockStalls).toBe(clock.stalls - stallsBefore);
    } finally {
      await agent.close();
    }
  }, 20_000);
});
