import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import {
  ClockSource,
  dtmfTones,
  whiteNoise,
  MULAW_FRAME_BYTES,
  TELEPHONY_SAMPLE_RATE,
  TextSignalDecoder,
  levelDbfs,
  mulawDecode,
  mulawEncode,
  STREAM_CLOSE_REPLICA_FULL,
  STREAM_CLOSE_REPLICA_FULL_REASON,
  systemClock,
} from '@vap/media';
import { QUIET_DBFS } from './agent-listener';
import { calleeScript, INTRO_WAIT_MS } from '../callee/callee-scripts';
import { OfflineCalleeVoice } from '../callee/callee-voice';
import { ALL_CALLEE_LINES, CalleeLines } from '../callee/callee-lines';
import { CalleeScript, PhoneEnd, SimulatedPhone } from './simulated-phone';

const TIME_SCALE = 10;
const INTRO = 'Hi Asha, this is Maya from Acme Health.';
const SHORT_LINE = 'One short line.';
const HOLDING = 'Let me look that up.';
const ANSWER = 'Done. order status shipped.';
const TRANSFERRING = 'Please hold while I transfer your call.';
const HANDBACK = "I'm sorry, my colleague didn't answer. How else can I help?";
const voice = new OfflineCalleeVoice();

type Frame = Record<string, unknown> & { event: string };

/** The media plane's side of one stream: what the phone sent, and a way to play audio to it. */
class FakeAgent {
  readonly received: Frame[] = [];
  readonly closed: Promise<void>;
  private waiters: (() => void)[] = [];
  private readonly decoded: Int16Array[] = [];
  private decodedUpTo = 0;
  private readonly reader = new TextSignalDecoder(TELEPHONY_SAMPLE_RATE);
  private readonly heard: string[] = [];
  private linesUpTo = 0;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as Frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  get streamSid(): string {
    return String(this.received.find((f) => f.event === 'start')?.streamSid);
  }

  /** The phone's media frames so far, decoded to PCM. */
  media(): Int16Array[] {
    // Decoded once each, as they come: the specs ask again on every frame they wait on.
    for (; this.decodedUpTo < this.received.length; this.decodedUpTo++) {
      const f = this.received[this.decodedUpTo];
      if (f.event !== 'media') continue;
      this.decoded.push(mulawDecode(Buffer.from((f.media as { payload: string }).payload, 'base64')));
    }
    return [...this.decoded];
  }

  /** Lines the phone said so far, read from its media as linesIn does, one frame at a time as they come. */
  lines(): string[] {
    const media = this.media();
    for (; this.linesUpTo < media.length; this.linesUpTo++)
      this.heard.push(...this.reader.push(media[this.linesUpTo]));
    return [...this.heard];
  }

  marks(): string[] {
    return this.received.filter((f) => f.event === 'mark').map((f) => (f.mark as { name: string }).name);
  }

  /** Index of the frame after which `predicate` first held (counts media frames sent by then). */
  async until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out waiting on the phone');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Sends speech as the agent would: 20 ms media frames, then a mark. */
  async say(text: string, mark: string): Promise<number> {
    return this.play(mulawEncode(await voice.speak(text)), mark);
  }

  /** Sends mu-law audio as the agent would (speech, or touch tones): 20 ms media frames, then a mark. */
  play(mulaw: Buffer, mark: string): number {
    for (let at = 0; at < mulaw.length; at += MULAW_FRAME_BYTES) {
      this.send({
        event: 'media',
        streamSid: this.streamSid,
        media: { payload: mulaw.subarray(at, at + MULAW_FRAME_BYTES).toString('base64') },
      });
    }
    this.send({ event: 'mark', streamSid: this.streamSid, mark: { name: mark } });
    return Math.ceil(mulaw.length / MULAW_FRAME_BYTES);
  }

  send(frame: object): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Media frames the phone had sent when it echoed `mark` (frames arriving with it in one read come after). */
  mediaBeforeMark(mark: string): number {
    const at = this.received.findIndex(
      (f) => f.event === 'mark' && (f.mark as { name: string }).name === mark,
    );
    return this.received.slice(0, at).filter((f) => f.event === 'media').length;
  }

  mediaCount(): number {
    return this.media().length;
  }
}

/** Lines the phone said, read back from its media as the voice service's offline STT would. */
function linesIn(frames: Int16Array[]): string[] {
  const decoder = new TextSignalDecoder(TELEPHONY_SAMPLE_RATE);
  return frames.flatMap((frame) => decoder.push(frame));
}

function firstVoicedFrame(frames: Int16Array[], from = 0): number {
  for (let i = from; i < frames.length; i++) if (levelDbfs(frames[i]) > QUIET_DBFS) return i;
  return -1;
}

/** Frames of `pcm` up to its last one above the quiet level: where its speech ends. */
function framesOfSpeech(pcm: Int16Array): number {
  for (let i = Math.ceil(pcm.length / MULAW_FRAME_BYTES) - 1; i >= 0; i--) {
    if (levelDbfs(pcm.subarray(i * MULAW_FRAME_BYTES, (i + 1) * MULAW_FRAME_BYTES)) > QUIET_DBFS)
      return i + 1;
  }
  return 0;
}

describe('SimulatedPhone against a media plane', () => {
  let server: WebSocketServer;
  let url: string;
  let agents: FakeAgent[];
  let nextAgent: Promise<FakeAgent>;
  const phones: SimulatedPhone[] = [];

  // Every line synthesized before any phone runs: the scripts wait on media time, ten times faster than real time,
  // so a first synthesis (flite compiling, hundreds of ms on a busy machine) would outlast the callee's patience
  // (6 s of media is 600 ms) and the callee would talk before the agent's line reached it.
  beforeAll(() =>
    voice.prepare([INTRO, SHORT_LINE, HOLDING, ANSWER, TRANSFERRING, HANDBACK, ...ALL_CALLEE_LINES]),
  );

  beforeEach(async () => {
    agents = [];
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media/sandbox/call-1?token=t`;
    nextAgent = new Promise((resolve) =>
      server.once('connection', (socket) => {
        const agent = new FakeAgent(socket);
        agents.push(agent);
        resolve(agent);
      }),
    );
  });

  afterEach(async () => {
    await Promise.all(phones.splice(0).map((phone) => phone.disconnect()));
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  function dial(script: CalleeScript): { phone: SimulatedPhone; ended: Promise<PhoneEnd> } {
    const phone = new SimulatedPhone({
      url,
      callSid: 'SBcall1',
      accountSid: 'ACsandbox',
      customParameters: { callId: 'call-1' },
      voice,
      timeScale: TIME_SCALE,
    });
    phones.push(phone);
    return { phone, ended: phone.run(script) };
  }

  const silent: CalleeScript = async (line) => {
    await line.pause(60_000);
  };

  it('speaks carrier_b: connected, start, then 20 ms mu-law media frames in sequence', async () => {
    dial(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 20);
    const [connected, start, ...rest] = agent.received;
    expect(connected).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    expect(start).toEqual({
      event: 'start',
      sequenceNumber: '1',
      streamSid: expect.stringMatching(/^MZ[0-9a-f]{32}$/),
      start: {
        accountSid: 'ACsandbox',
        callSid: 'SBcall1',
        streamSid: start.streamSid,
        tracks: ['inbound'],
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        customParameters: { callId: 'call-1' },
      },
    });
    const media = rest.filter((f) => f.event === 'media').slice(0, 20);
    media.forEach((frame, i) => {
      expect(frame).toMatchObject({
        streamSid: start.streamSid,
        sequenceNumber: String(i + 2),
        media: { track: 'inbound', chunk: String(i + 1), timestamp: String(i * 20) },
      });
      expect(Buffer.from((frame.media as { payload: string }).payload, 'base64')).toHaveLength(160);
    });
  });

  it('paces media on the scaled clock: about 20 ms / MEDIA_TIME_SCALE of real time per frame', async () => {
    dial(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    const startedAt = Date.now();
    await agent.until(() => agent.mediaCount() >= 251);
    const elapsed = Date.now() - startedAt;
    // 250 frames = 5 s of media = 500 ms at scale 10.
    expect(elapsed).toBeGreaterThan(400);
    expect(elapsed).toBeLessThan(1500);
  });

  it('hears the intro, echoes its mark once it has played, then answers with its greeting', async () => {
    const { phone } = dial(calleeScript('conversation', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 5);
    const sentBeforeIntro = agent.mediaCount();
    const introFrames = await agent.say(INTRO, 'intro-done');
    await agent.until(() => agent.marks().includes('intro-done'));
    // The mark came back only after the intro's frames played, one per media tick.
    const markedAt = agent.mediaBeforeMark('intro-done');
    expect(markedAt - sentBeforeIntro).toBeGreaterThanOrEqual(introFrames);

    await agent.until(() => agent.lines().includes(CalleeLines.greeting));
    expect(phone.heard).toEqual([INTRO]);
    const frames = agent.media();
    // Silent while the agent spoke: the greeting starts after the intro's speech has played. (Not after the
    // mark: the intro's trailing silence already counts towards the turn gap.)
    const introSpeech = framesOfSpeech(await voice.speak(INTRO));
    expect(firstVoicedFrame(frames)).toBeGreaterThanOrEqual(sentBeforeIntro + introSpeech);
    expect(linesIn(frames)).toEqual([CalleeLines.greeting]);
  });

  it('lets an intro begun just before its patience ran out finish, then greets (a late intro is not talked over)', async () => {
    const { phone } = dial(calleeScript('conversation', { hold: async () => undefined }));
    const agent = await nextAgent;
    // The intro starts 0.6 s of media before the callee would speak anyway (INTRO_WAIT_MS), and lasts longer.
    await agent.until(() => agent.mediaCount() >= (INTRO_WAIT_MS - 600) / 20);
    const sentBeforeIntro = agent.mediaCount();
    const introSpeech = framesOfSpeech(await voice.speak(INTRO));
    expect(introSpeech * 20).toBeGreaterThan(600);
    await agent.say(INTRO, 'intro-done');
    await agent.until(() => agent.lines().includes(CalleeLines.greeting));
    expect(phone.heard).toEqual([INTRO]);
    expect(agent.marks()).toContain('intro-done');
    expect(firstVoicedFrame(agent.media())).toBeGreaterThanOrEqual(sentBeforeIntro + introSpeech);
  });

  it('echoes marks in order, each after the audio queued before it', async () => {
    dial(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    const sid = agent.streamSid;
    agent.send({ event: 'mark', streamSid: sid, mark: { name: 'a' } });
    const frames = await agent.say(SHORT_LINE, 'b');
    agent.send({ event: 'mark', streamSid: sid, mark: { name: 'c' } });
    const before = agent.mediaCount();
    await agent.until(() => agent.marks().length === 3);
    expect(agent.marks()).toEqual(['a', 'b', 'c']);
    expect(agent.mediaCount() - before).toBeGreaterThanOrEqual(frames - 2);
    const echo = agent.received.find((f) => f.event === 'mark');
    expect(echo).toEqual({
      event: 'mark',
      sequenceNumber: expect.stringMatching(/^\d+$/),
      streamSid: sid,
      mark: { name: 'a' },
    });
  });

  it('drops queued audio on clear and returns its pending marks at once', async () => {
    const { phone } = dial(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    const frames = await agent.say(CalleeLines.monologue[0], 'cut');
    expect(phone.clears).toBe(0);
    agent.send({ event: 'clear', streamSid: agent.streamSid });
    const before = agent.mediaCount();
    await agent.until(() => agent.marks().includes('cut'));
    expect(phone.clears).toBe(1);
    expect(agent.mediaCount() - before).toBeLessThan(frames / 2);
    // The rest of the line never plays: the phone never reads it.
    await agent.until(() => agent.mediaCount() >= before + frames + 20);
    expect(phone.heard).toEqual([]);
  });

  it('talks over the agent as the long talker (barge-in)', async () => {
    dial(calleeScript('long_talker', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    const startedAt = agent.mediaCount();
    const introFrames = await agent.say(CalleeLines.monologue[1], 'long-intro');
    await agent.until(() => firstVoicedFrame(agent.media(), startedAt) >= 0);
    const cutIn = firstVoicedFrame(agent.media(), startedAt) - startedAt;
    expect(cutIn).toBeLessThan(introFrames);
    expect(agent.marks()).not.toContain('long-intro');
  });

  it('presses keys as the keypad caller (outcome 92): dtmf frames, after the agent had its say', async () => {
    dial(calleeScript('keypad_entry', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    await agent.until(() => agent.received.filter((f) => f.event === 'dtmf').length === 5);
    const keys = agent.received.filter((f) => f.event === 'dtmf');
    expect(keys.map((f) => (f.dtmf as { digit: string }).digit).join('')).toBe('4711#');
    expect(keys[0]).toMatchObject({ streamSid: agent.streamSid, dtmf: { track: 'inbound_track' } });
    expect(agent.marks()).toContain('intro');
  });

  it("is a phone menu (outcome 91): reads its options, hears the agent's key in-band and names the choice", async () => {
    const { phone, ended } = dial(calleeScript('phone_menu', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    await agent.until(() => agent.lines().includes(CalleeLines.menu), 20_000);
    agent.play(dtmfTones('2'), 'keys');
    const end = await ended;
    expect(end.kind).toBe('callee_hung_up');
    expect(phone.keysHeard).toBe('2');
    expect(agent.lines()).toEqual([CalleeLines.menu, CalleeLines.menuChoice[1]]);
  });

  it('hangs up on disconnect: stop, then the socket closes, with the media time', async () => {
    const { phone, ended } = dial(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 10);
    await phone.disconnect();
    await agent.closed;
    const end = await ended;
    expect(end.kind).toBe('disconnected');
    expect(end.mediaMs).toBe(agent.mediaCount() * 20);
    expect(agent.received[agent.received.length - 1]).toMatchObject({
      event: 'stop',
      streamSid: agent.streamSid,
      stop: { accountSid: 'ACsandbox', callSid: 'SBcall1' },
    });
  });

  it('asks to hold, then reports the carrier hold on and, 20 s of media later, off (outcome 06)', async () => {
    const holds: { phase: string; durationSecs: number | null; mediaCount: number }[] = [];
    const answered = nextAgent;
    dial(
      calleeScript('hold', {
        hold: async (phase, durationSecs) => {
          holds.push({ phase, durationSecs, mediaCount: (await answered).mediaCount() });
        },
      }),
    );
    const agent = await answered;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    await agent.until(() => holds.length === 2);
    expect(holds.map(({ phase, durationSecs }) => [phase, durationSecs])).toEqual([
      ['start', null],
      ['end', 20],
    ]);
    // 20 s on hold is 1,000 media frames of 20 ms between the two reports.
    expect(holds[1].mediaCount - holds[0].mediaCount).toBeGreaterThanOrEqual(990);
    expect(agent.lines()).toEqual([CalleeLines.holdRequest]);
  });

  it('hangs up by itself after the intro without a word (outcome 05)', async () => {
    const { ended } = dial(calleeScript('hangup_no_speech', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    const end = await ended;
    await agent.closed;
    expect(end).toMatchObject({ kind: 'callee_hung_up', spoke: false });
    expect(agent.marks()).toContain('intro');
    expect(firstVoicedFrame(agent.media())).toBe(-1);
    expect(agent.received[agent.received.length - 1].event).toBe('stop');
  });

  it('asks for a partner function by name, word for word as the offline STT reads it, then says goodbye (outcome 09)', async () => {
    dial(calleeScript('calls_function', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    await agent.until(() => agent.lines().includes(CalleeLines.callsFunction));
    await agent.say(ANSWER, 'answer');
    await agent.until(() => agent.lines().length === 2);
    expect(agent.lines()).toEqual([CalleeLines.callsFunction, CalleeLines.goodbye]);
  });

  it('waits through a holding line and a quiet wait for the answer before its goodbye (outcome 09)', async () => {
    dial(calleeScript('calls_function', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    await agent.until(() => agent.lines().includes(CalleeLines.callsFunction));
    await agent.say(HOLDING, 'holding');
    // Five seconds of media from the holding line on, most of it quiet while the partner has not answered.
    const heldFrom = agent.mediaCount();
    await agent.until(() => agent.mediaCount() >= heldFrom + 250);
    expect(agent.lines()).toEqual([CalleeLines.callsFunction]);
    await agent.say(ANSWER, 'answer');
    await agent.until(() => agent.lines().length === 2);
    expect(agent.lines()).toEqual([CalleeLines.callsFunction, CalleeLines.goodbye]);
  });

  it('waits on hold through a warm transfer: the hold audio the agent cut is no turn, its word after it is (outcome 08)', async () => {
    const { phone } = dial(calleeScript('asks_for_human', { hold: async () => undefined }));
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 1);
    await agent.say(INTRO, 'intro');
    await agent.until(() => agent.lines().includes(CalleeLines.askForHuman));
    await agent.say(TRANSFERRING, 'transfer');
    await agent.until(() => agent.marks().includes('transfer'));
    // Hold audio (no line in it) while the human's leg rings; the transfer did not go through, so the agent cuts
    // it (clear) and tells the caller, its line coming late (a slow synthesis): 3 s of media of quiet.
    const heldFrom = agent.mediaCount();
    agent.play(mulawEncode(whiteNoise(TELEPHONY_SAMPLE_RATE * 8, -37, 5)), 'hold');
    await agent.until(() => agent.mediaCount() >= heldFrom + 250);
    agent.send({ event: 'clear', streamSid: agent.streamSid });
    const cutAt = agent.mediaCount();
    await agent.until(() => agent.mediaCount() >= cutAt + 150);
    expect(firstVoicedFrame(agent.media(), heldFrom)).toBe(-1);
    await agent.say(HANDBACK, 'back');
    await agent.until(() => agent.lines().length === 2);
    expect(agent.lines()).toEqual([CalleeLines.askForHuman, CalleeLines.neverMind]);
    // The callee's answer followed the agent's word: it had heard it.
    expect(phone.heard).toEqual([INTRO, TRANSFERRING, HANDBACK]);
  });

  it('ends as stream_closed when the media plane closes the socket', async () => {
    const { ended } = dial(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 3);
    agent.socket.close();
    await expect(ended).resolves.toMatchObject({ kind: 'stream_closed' });
  });

  it('ends as stream_failed when a full media plane closes the stream with 1013 (try again later)', async () => {
    const { ended } = dial(silent);
    const agent = await nextAgent;
    agent.socket.close(STREAM_CLOSE_REPLICA_FULL, STREAM_CLOSE_REPLICA_FULL_REASON);
    await expect(ended).resolves.toMatchObject({
      kind: 'stream_failed',
      error: expect.stringContaining('1013 replica full'),
    });
  });

  it('streams without a break, as a carrier does: the frames missed in a stall go out at once, so they keep the clock', async () => {
    let stalledMs = 0;
    const clock: ClockSource = { ...systemClock, now: () => systemClock.now() + stalledMs };
    const phone = new SimulatedPhone({
      url,
      callSid: 'SBcall1',
      accountSid: 'ACsandbox',
      customParameters: {},
      voice,
      timeScale: TIME_SCALE,
      clock,
    });
    phones.push(phone);
    const dialledAt = clock.now();
    const ended = phone.run(silent);
    const agent = await nextAgent;
    await agent.until(() => agent.mediaCount() >= 10);
    // The process stalls for 300 ms of real time: 3 s of media, 150 frames' slots.
    stalledMs = 300;
    const before = agent.mediaCount();
    await agent.until(() => agent.mediaCount() >= before + 150);
    await phone.disconnect();
    const { mediaMs } = await ended;
    const clockMs = (clock.now() - dialledAt) * TIME_SCALE;
    // The frames sent count the call's time on the clock, the stall's included (a phone that skipped the missed
    // slots would be 3 s short), give or take the connect and a late timer's last frames.
    expect(mediaMs).toBeLessThanOrEqual(clockMs);
    expect(mediaMs).toBeGreaterThan(clockMs - 1000);
  });

  it('ends as stream_failed when the upgrade is refused', async () => {
    server.close();
    const phone = new SimulatedPhone({
      url: url.replace(/:\d+\//, ':1/'),
      callSid: 'SBcall1',
      accountSid: 'ACsandbox',
      customParameters: {},
      voice,
      timeScale: TIME_SCALE,
    });
    await expect(phone.run(silent)).resolves.toMatchObject({ kind: 'stream_failed', mediaMs: 0 });
  });
});
