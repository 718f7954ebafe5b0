import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { MediaStreamEndReasons } from '@vap/messages';
import type { VoiceCallContext } from '@vap/messages';
import {
  BROWSER_CALLER_DISCONNECTED,
  BROWSER_CALLER_ENDED,
  MediaStreamEvent,
  mediaStreamCodec,
  mulawDecode,
  mulawEncode,
  pcm16FromBuffer,
  pcm16ToBuffer,
  sineWave,
} from '@vap/media';
import type { ConversationResult, LiveConversation, MediaTransport } from '../conversation';
import { cutStreams, ignoredStreamMessages, inboundAudioDropped } from '../metrics/voice.metrics';
import {
  CLOSE_INTERNAL_ERROR,
  CLOSE_INVALID_PAYLOAD,
  CLOSE_NORMAL,
  MediaSession,
  MediaStreamBounds,
  PIPELINE_FAILED_REASON,
  TERMINATED_REASON,
} from './media-session';

/** Bounds out of the way of a spec that is not about them. */
const LOOSE: MediaStreamBounds = {
  audioBurstMs: 60_000,
  pingIntervalMs: 60_000,
  inboundSilenceMs: 60_000,
  maxBufferedBytes: 64 * 1024 * 1024,
};
/** MEDIA_MAX_MESSAGE_BYTES in these specs: a 20 ms frame of 16 kHz PCM16 is 640 bytes. */
const MAX_MESSAGE_BYTES = 8192;
const SESSION_ID = 'a2f3c9e4-1111-4f00-8000-000000000001';

const CONTEXT = {
  callId: SESSION_ID,
  partnerId: 'partner_spec',
  agentId: 'agent_spec',
  provider: 'browser',
  agent: { voicemailDetectionEnabled: false },
} as VoiceCallContext;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function counterValue(
  counter: { get(): Promise<{ values: { value: number; labels: object }[] }> },
  labels: Record<string, string> = {},
): Promise<number> {
  const { values } = await counter.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, l]) => (v.labels as Record<string, string>)[k] === l))
    .reduce((sum, v) => sum + v.value, 0);
}

/** 20 ms of a 440 Hz tone as the browser sends it: PCM16 LE mono 16 kHz, 640 bytes. */
function browserFrame(amplitude = 10_000): Buffer {
  return Buffer.from(pcm16ToBuffer(sineWave(440, 320, 16_000, amplitude)));
}

/** 20 ms of the agent's audio as the conversation sends it: mu-law 8 kHz, 160 bytes. */
const AGENT_FRAME = mulawEncode(sineWave(440, 160, 8000, 10_000));

/** Records what the session feeds it; settles `done` when the stream stops (with its reason) or closes. */
class FakeConversation implements LiveConversation {
  readonly events: MediaStreamEvent[] = [];
  closed = false;
  cutReason: string | undefined;
  terminated = false;
  readonly done: Promise<ConversationResult>;
  private settle!: (result: ConversationResult) => void;

  constructor(readonly transport: MediaTransport) {
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  onEvent(event: MediaStreamEvent): void {
    this.events.push(event);
    if (event.type === 'stopped')
      this.settle({ endCallReason: event.reason ?? null, mediaSeconds: 1, recording: null });
  }

  onClosed(cutReason?: string): void {
    this.closed = true;
    this.cutReason = cutReason;
    this.settle({ endCallReason: cutReason ?? null, mediaSeconds: 0, recording: null });
  }

  end(reason: string): boolean {
    this.settle({ endCallReason: reason, mediaSeconds: 2, recording: null });
    return true;
  }

  terminate(): boolean {
    this.terminated = true;
    setTimeout(() => this.settle({ endCallReason: null, mediaSeconds: 3, recording: null }), 20);
    return true;
  }

  answeredBy(): boolean {
    return false;
  }

  audio(): Buffer[] {
    return this.events.flatMap((e) => (e.type === 'audio' ? [e.payload] : []));
  }
}

interface Harness {
  client: WebSocket;
  session: Promise<MediaSession>;
  conversation: Promise<FakeConversation>;
  finished: ConversationResult[];
  hangups: string[];
  /** Text messages parsed; binary ones as Buffers. */
  received: unknown[];
}

describe('MediaSession (a browser stream over a real WebSocket)', () => {
  let wss: WebSocketServer;
  let url: string;

  beforeAll(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: MAX_MESSAGE_BYTES });
    await once(wss, 'listening');
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  function connect(bounds: MediaStreamBounds = LOOSE, failToStart = false): Harness {
    const finished: ConversationResult[] = [];
    const hangups: string[] = [];
    const received: unknown[] = [];
    let conversationOf!: (c: FakeConversation) => void;
    const conversation = new Promise<FakeConversation>((resolve) => (conversationOf = resolve));
    const session = new Promise<MediaSession>((resolve) => {
      wss.once('connection', (socket) => {
        resolve(
          new MediaSession({
            context: CONTEXT,
            socket,
            codec: mediaStreamCodec('browser'),
            timeScale: 1,
            bounds,
            log: () => undefined,
            startConversation: async (transport) => {
              if (failToStart) throw new Error('no voice');
              const c = new FakeConversation(transport);
              conversationOf(c);
              return c;
            },
            finish: async (result) => {
              finished.push(result);
            },
            hangup: async (reason) => {
              hangups.push(reason);
            },
          }),
        );
      });
    });
    const client = new WebSocket(url);
    client.on('message', (data, isBinary) =>
      received.push(isBinary ? Buffer.from(data as Buffer) : JSON.parse(String(data))),
    );
    return { client, session, conversation, finished, hangups, received };
  }

  const text = (h: Harness) => h.received.filter((m) => !Buffer.isBuffer(m));
  const binary = (h: Harness) => h.received.filter((m): m is Buffer => Buffer.isBuffer(m));
  const until = async (predicate: () => boolean, what: string) => {
    const deadline = Date.now() + 3000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(2);
    }
  };

  it('starts without a start message: the conversation hears `started`, the client session.started', async () => {
    const h = connect();
    await once(h.client, 'open');
    const conversation = await h.conversation;
    await until(() => h.received.length > 0, 'session.started');
    expect(h.received[0]).toEqual({ type: 'session.started', session_id: SESSION_ID });
    expect(conversation.events[0]).toEqual({
      type: 'started',
      callId: SESSION_ID,
      streamId: SESSION_ID,
      params: {},
    });
    h.client.close();
    await (
      await h.session
    ).finished;
  });

  it('binary 16 kHz PCM reaches the conversation as 8 kHz mu-law; sendAudio goes out as 16 kHz binary', async () => {
    const h = connect();
    await once(h.client, 'open');
    const conversation = await h.conversation;
    for (let i = 0; i < 5; i++) h.client.send(browserFrame());
    await until(() => conversation.audio().length === 5, 'five frames of caller audio');
    const heard = conversation.audio();
    // 160 mu-law bytes a frame once the resampler is primed (the first is a few samples short).
    expect(heard.slice(1).map((b) => b.length)).toEqual([160, 160, 160, 160]);
    const level = Math.max(...mulawDecode(heard[3]).map(Math.abs));
    expect(level).toBeGreaterThan(8000);
    expect(level).toBeLessThan(12_000);

    for (let i = 0; i < 3; i++) conversation.transport.send({ type: 'sendAudio', payload: AGENT_FRAME });
    await until(() => binary(h).length === 3, 'three frames of agent audio');
    const out = binary(h);
    expect(out[0].length).toBeLessThanOrEqual(640);
    expect(out.slice(1).map((b) => b.length)).toEqual([640, 640]);
    const pcm = pcm16FromBuffer(Buffer.from(out[2]));
    expect(Math.max(...pcm.map(Math.abs))).toBeGreaterThan(8000);
    h.client.close();
    await (
      await h.session
    ).finished;
  });

  it('maps marks, clear and played 1:1, and sends the conversation notices as JSON', async () => {
    const h = connect();
    await once(h.client, 'open');
    const conversation = await h.conversation;
    conversation.transport.send({ type: 'mark', name: 'utt-1' });
    conversation.transport.send({ type: 'clear' });
    conversation.transport.notify!({ type: 'transcript', role: 'user', text: 'hello th', final: false });
    conversation.transport.notify!({ type: 'agent.speaking', speaking: true });
    conversation.transport.notify!({
      type: 'tool',
      name: 'transfer_call',
      status: 'running',
      arguments: { reason: 'asked' },
    });
    h.client.send(JSON.stringify({ type: 'played', name: 'utt-1' }));
    await until(() => conversation.events.some((e) => e.type === 'played'), 'played');
    await until(() => text(h).length === 6, 'the notices');
    expect(text(h)).toEqual([
      { type: 'session.started', session_id: SESSION_ID },
      { type: 'mark', name: 'utt-1' },
      { type: 'clear' },
      { type: 'transcript', role: 'user', text: 'hello th', final: false },
      { type: 'agent.speaking', speaking: true },
      { type: 'tool', name: 'transfer_call', status: 'running', arguments: { reason: 'asked' } },
    ]);
    expect(conversation.events).toContainEqual({ type: 'played', mark: 'utt-1' });
    h.client.close();
    await (
      await h.session
    ).finished;
  });

  it('takes typed lines as text events; answers a malformed, oversize or too frequent one with an error and goes on', async () => {
    const h = connect();
    await once(h.client, 'open');
    const conversation = await h.conversation;
    const typed = () => conversation.events.filter((e) => e.type === 'text');
    const errors = () =>
      text(h).filter((m) => (m as { type: string }).type === 'error') as { code: string }[];
    h.client.send(JSON.stringify({ type: 'user_text', text: '  Where is my order?  ' }));
    await until(() => typed().length === 1, 'the typed line');
    // Trimmed: what the caller meant.
    expect(typed()[0]).toEqual({ type: 'text', text: 'Where is my order?' });
    for (const bad of [
      { type: 'user_text' },
      { type: 'user_text', text: 42 },
      { type: 'user_text', text: '   ' },
      { type: 'user_text', text: 'x'.repeat(1001) },
    ]) {
      h.client.send(JSON.stringify(bad));
    }
    await until(() => errors().length === 4, 'four errors');
    expect(errors().every((e) => e.code === 'invalid_user_text')).toBe(true);
    // 1000 characters (as a person counts them: emoji are one each) is the most a line may hold.
    h.client.send(JSON.stringify({ type: 'user_text', text: '🙂'.repeat(1000) }));
    await until(() => typed().length === 2, 'the longest line');
    // The burst allows three lines at once: the fourth in a row is refused, then one every half second.
    h.client.send(JSON.stringify({ type: 'user_text', text: 'third' }));
    h.client.send(JSON.stringify({ type: 'user_text', text: 'fourth' }));
    await until(() => errors().length === 5, 'the rate limit');
    expect(errors()[4]).toMatchObject({ code: 'rate_limited' });
    expect(typed().map((e) => (e as { text: string }).text)).not.toContain('fourth');
    await sleep(550);
    h.client.send(JSON.stringify({ type: 'user_text', text: 'later' }));
    await until(() => typed().length === 4, 'a line after the wait');
    // None of it closed the stream.
    expect(h.client.readyState).toBe(WebSocket.OPEN);
    expect(conversation.closed).toBe(false);
    h.client.close();
    await (
      await h.session
    ).finished;
  });

  it('`end` ends the session with caller_ended: session.ended goes out before the 1000 close, then the report', async () => {
    const h = connect();
    await once(h.client, 'open');
    const conversation = await h.conversation;
    const closed = once(h.client, 'close');
    h.client.send(JSON.stringify({ type: 'end' }));
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_NORMAL);
    expect(text(h).at(-1)).toEqual({ type: 'session.ended', reason: BROWSER_CALLER_ENDED });
    await (
      await h.session
    ).finished;
    expect(conversation.events.at(-1)).toEqual({ type: 'stopped', reason: BROWSER_CALLER_ENDED });
    expect(h.finished).toEqual([{ endCallReason: BROWSER_CALLER_ENDED, mediaSeconds: 1, recording: null }]);
  });

  it('a client that closes the socket (or vanishes) still has its session reported ended, as caller_disconnected', async () => {
    for (const leave of [(c: WebSocket) => c.close(), (c: WebSocket) => c.terminate()]) {
      const h = connect();
      await once(h.client, 'open');
      const conversation = await h.conversation;
      leave(h.client);
      await (
        await h.session
      ).finished;
      expect(conversation.events.at(-1)).toEqual({ type: 'stopped', reason: BROWSER_CALLER_DISCONNECTED });
      expect(h.finished.map((r) => r.endCallReason)).toEqual([BROWSER_CALLER_DISCONNECTED]);
      expect(h.hangups).toEqual([]);
    }
  });

  it('an ended session (terminate) tells the client before it closes', async () => {
    const h = connect();
    await once(h.client, 'open');
    const conversation = await h.conversation;
    const session = await h.session;
    const closed = once(h.client, 'close');
    expect(session.terminate()).toBe(true);
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_NORMAL);
    expect(text(h).at(-1)).toEqual({ type: 'session.ended', reason: TERMINATED_REASON });
    await session.finished;
    expect(conversation.terminated).toBe(true);
    expect(h.finished).toHaveLength(1);
  });

  it('a session whose conversation cannot start tells the client, closes with 1011 and hangs up', async () => {
    const h = connect(LOOSE, true);
    await once(h.client, 'open');
    const [code] = (await once(h.client, 'close')) as [number, Buffer];
    expect(code).toBe(CLOSE_INTERNAL_ERROR);
    expect(text(h)).toEqual([
      { type: 'session.started', session_id: SESSION_ID },
      { type: 'session.ended', reason: PIPELINE_FAILED_REASON },
    ]);
    await (
      await h.session
    ).finished;
    expect(h.hangups).toEqual([PIPELINE_FAILED_REASON]);
    expect(h.finished.map((r) => r.endCallReason)).toEqual([PIPELINE_FAILED_REASON]);
  });

  it('while muted, the conversation hears silence on the media clock, whether the client sends frames or not', async () => {
    // A client that stops sending while muted is not cut for silence.
    const h = connect({ ...LOOSE, inboundSilenceMs: 200 });
    await once(h.client, 'open');
    const conversation = await h.conversation;
    h.client.send(browserFrame());
    await until(() => conversation.audio().length === 1, 'the first frame');
    h.client.send(JSON.stringify({ type: 'mute', muted: true }));
    // The client's own frames while muted are not heard.
    for (let i = 0; i < 3; i++) h.client.send(browserFrame());
    await sleep(400);
    const muted = conversation.audio().slice(1);
    // About 20 silence frames in 400 ms (timers on a loaded machine fire late, never early).
    expect(muted.length).toBeGreaterThanOrEqual(15);
    expect(muted.length).toBeLessThanOrEqual(25);
    for (const frame of muted) {
      expect(frame.length).toBe(160);
      expect([...frame].every((b) => b === 0xff)).toBe(true);
    }
    expect(h.client.readyState).toBe(WebSocket.OPEN);
    h.client.send(JSON.stringify({ type: 'mute', muted: false }));
    await sleep(10);
    const fed = conversation.audio().length;
    for (let i = 0; i < 3; i++) h.client.send(browserFrame());
    await until(() => conversation.audio().length >= fed + 3, 'audio again');
    await sleep(60);
    // The feed stopped with the unmute: only the client's frames now.
    expect(conversation.audio().length).toBe(fed + 3);
    expect(Math.max(...mulawDecode(conversation.audio().at(-1)!).map(Math.abs))).toBeGreaterThan(8000);
    // Mute is no event of the conversation's.
    expect(new Set(conversation.events.slice(1).map((e) => e.type))).toEqual(new Set(['audio']));
    h.client.close();
    await (
      await h.session
    ).finished;
  });

  describe('bad input never crashes: it is refused or closed with the documented code', () => {
    it.each([
      ['odd-length binary audio', Buffer.alloc(641), /^invalid browser message: invalid_field \(audio\)/],
      ['text that is not JSON', 'hello', /^invalid browser message: invalid_json/],
      ['a JSON array', '[1,2]', /^invalid browser message: not_an_object/],
      ['a known type with a bad field', '{"type":"mute","muted":1}', /invalid_field \(muted\)/],
    ])('closes with 1007 on %s, and the session is reported', async (_what, message, reason) => {
      const h = connect();
      await once(h.client, 'open');
      const conversation = await h.conversation;
      const closed = once(h.client, 'close');
      h.client.send(message);
      const [code, why] = (await closed) as [number, Buffer];
      expect(code).toBe(CLOSE_INVALID_PAYLOAD);
      expect(String(why)).toMatch(reason);
      await (
        await h.session
      ).finished;
      expect(conversation.cutReason).toBe(MediaStreamEndReasons.protocolError);
      expect(h.finished).toHaveLength(1);
    });

    it('ignores and counts unknown JSON types; the stream carries on', async () => {
      const before = await counterValue(ignoredStreamMessages, { protocol: 'browser' });
      const h = connect();
      await once(h.client, 'open');
      const conversation = await h.conversation;
      h.client.send(JSON.stringify({ type: 'hello', v: 2 }));
      h.client.send(browserFrame());
      await until(() => conversation.audio().length === 1, 'audio after the unknown message');
      expect(await counterValue(ignoredStreamMessages, { protocol: 'browser' })).toBe(before + 1);
      h.client.close();
      await (
        await h.session
      ).finished;
    });

    it('closes with 1009 on a message over MEDIA_MAX_MESSAGE_BYTES', async () => {
      const h = connect();
      await once(h.client, 'open');
      const conversation = await h.conversation;
      const closed = once(h.client, 'close');
      h.client.send(Buffer.alloc(MAX_MESSAGE_BYTES + 2));
      const [code] = (await closed) as [number, Buffer];
      expect(code).toBe(1009);
      await (
        await h.session
      ).finished;
      expect(conversation.cutReason).toBe(MediaStreamEndReasons.protocolError);
    });

    it('counts the browser bytes against the audio budget at 32 a ms, dropping what exceeds it', async () => {
      const dropped = await counterValue(inboundAudioDropped);
      // 100 ms of burst: five 20 ms frames of 640 bytes, give or take what the clock refills meanwhile.
      const h = connect({ ...LOOSE, audioBurstMs: 100 });
      await once(h.client, 'open');
      const conversation = await h.conversation;
      for (let i = 0; i < 20; i++) h.client.send(browserFrame());
      h.client.send(JSON.stringify({ type: 'played', name: 'after' }));
      await until(() => conversation.events.some((e) => e.type === 'played'), 'the last message');
      const heard = conversation.audio().length;
      expect(heard).toBeGreaterThanOrEqual(5);
      expect(heard).toBeLessThan(15);
      // Counted in seconds of audio: 20 ms a frame dropped.
      expect(await counterValue(inboundAudioDropped)).toBeCloseTo(dropped + (20 - heard) * 0.02, 5);
      h.client.close();
      await (
        await h.session
      ).finished;
    });

    it('cuts a client that floods messages far beyond its audio', async () => {
      const before = await counterValue(cutStreams, { reason: MediaStreamEndReasons.protocolError });
      const h = connect({ ...LOOSE, audioBurstMs: 20 });
      await once(h.client, 'open');
      await h.conversation;
      const closed = once(h.client, 'close');
      // 20 ms of burst allows 16 x 640 bytes of messages; a flood of 4 KiB ones breaks it.
      for (let i = 0; i < 10; i++) h.client.send(JSON.stringify({ type: 'x', pad: 'a'.repeat(4000) }));
      await closed;
      await (
        await h.session
      ).finished;
      expect(await counterValue(cutStreams, { reason: MediaStreamEndReasons.protocolError })).toBe(
        before + 1,
      );
    });
  });
});
