import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { MediaStreamEndReasons } from '@vap/messages';
import type { VoiceCallContext } from '@vap/messages';
import { MediaStreamEvent, mediaStreamCodec } from '@vap/media';
import type { ConversationResult, LiveConversation, MediaTransport } from '../conversation';
import { cutStreams, ignoredStreamMessages, inboundAudioDropped } from '../metrics/voice.metrics';
import {
  CLOSE_INTERNAL_ERROR,
  CLOSE_INVALID_PAYLOAD,
  CLOSE_NORMAL,
  CLOSE_POLICY_VIOLATION,
  MediaSession,
  MediaStreamBounds,
  PIPELINE_FAILED_REASON,
} from './media-session';

/** Bounds out of the way of a spec that is not about them. */
const LOOSE: MediaStreamBounds = {
  audioBurstMs: 60_000,
  pingIntervalMs: 60_000,
  inboundSilenceMs: 60_000,
  maxBufferedBytes: 64 * 1024 * 1024,
};
/** The ws server's message limit in these specs (MEDIA_MAX_MESSAGE_BYTES). */
const MAX_MESSAGE_BYTES = 8192;

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

const CONTEXT = {
  callId: 'call_spec',
  partnerId: 'partner_spec',
  agentId: 'agent_spec',
  agent: { voicemailDetectionEnabled: true },
} as VoiceCallContext;

/** Records what the session feeds it; settles `done` when the stream stops or closes, or when ended. */
class FakeConversation implements LiveConversation {
  readonly events: MediaStreamEvent[] = [];
  closed = false;
  /** The reason the session gave when it cut the stream. */
  cutReason: string | undefined;
  endedWith: string | null = null;
  terminated = false;
  answeredWith: string | null = null;
  readonly done: Promise<ConversationResult>;
  private settle!: (result: ConversationResult) => void;

  constructor(readonly transport: MediaTransport) {
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  onEvent(event: MediaStreamEvent): void {
    this.events.push(event);
    if (event.type === 'started') this.transport.send({ type: 'sendAudio', payload: Buffer.from([1, 2, 3]) });
    if (event.type === 'stopped') this.settle({ endCallReason: null, mediaSeconds: 1.5, recording: null });
  }

  onClosed(cutReason?: string): void {
    this.closed = true;
    this.cutReason = cutReason;
    if (this.terminated) return;
    this.settle({ endCallReason: cutReason ?? null, mediaSeconds: 0, recording: null });
  }

  end(reason: string): boolean {
    this.endedWith = reason;
    this.settle({ endCallReason: reason, mediaSeconds: 2, recording: null });
    return true;
  }

  terminate(): boolean {
    this.terminated = true;
    // Settled later than the socket's close, as a real conversation's reports still run.
    setTimeout(() => this.settle({ endCallReason: null, mediaSeconds: 3, recording: null }), 30);
    return true;
  }

  answeredBy(answeredBy: string): boolean {
    this.answeredWith = answeredBy;
    if (answeredBy !== 'machine') return false;
    this.settle({ endCallReason: 'voicemail_detected', mediaSeconds: 2, recording: null });
    return true;
  }
}

const frames = {
  connected: { event: 'connected', protocol: 'Call', version: '1.0.0' },
  start: {
    event: 'start',
    sequenceNumber: '1',
    start: {
      accountSid: 'AC1',
      streamSid: 'MZ1',
      callSid: 'CA1',
      tracks: ['inbound'],
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      customParameters: { callId: 'call_spec' },
    },
    streamSid: 'MZ1',
  },
  media: (payload: Buffer, track = 'inbound') => ({
    event: 'media',
    sequenceNumber: '2',
    media: { track, chunk: '1', timestamp: '20', payload: payload.toString('base64') },
    streamSid: 'MZ1',
  }),
  mark: { event: 'mark', sequenceNumber: '3', mark: { name: 'utt-1' }, streamSid: 'MZ1' },
  dtmf: {
    event: 'dtmf',
    sequenceNumber: '4',
    dtmf: { track: 'inbound_track', digit: '5' },
    streamSid: 'MZ1',
  },
  stop: { event: 'stop', sequenceNumber: '5', stop: { accountSid: 'AC1', callSid: 'CA1' }, streamSid: 'MZ1' },
};

interface Harness {
  client: WebSocket;
  session: Promise<MediaSession>;
  conversation: Promise<FakeConversation>;
  finished: ConversationResult[];
  hangups: string[];
  received: unknown[];
}

describe('MediaSession (carrier_b protocol over a real WebSocket)', () => {
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

  function connect(
    start: (transport: MediaTransport) => Promise<LiveConversation> = async (t) => new FakeConversation(t),
    context: VoiceCallContext = CONTEXT,
    bounds: MediaStreamBounds = LOOSE,
  ): Harness {
    const finished: ConversationResult[] = [];
    const hangups: string[] = [];
    const received: unknown[] = [];
    let conversationOf!: (c: FakeConversation) => void;
    const conversation = new Promise<FakeConversation>((resolve) => (conversationOf = resolve));
    const session = new Promise<MediaSession>((resolve) => {
      wss.once('connection', (socket) => {
        resolve(
          new MediaSession({
            context,
            socket,
            codec: mediaStreamCodec('carrier_b'),
            timeScale: 1,
            bounds,
            log: () => undefined,
            startConversation: async (transport) => {
              const c = await start(transport);
              if (c instanceof FakeConversation) conversationOf(c);
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
    client.on('message', (data) => received.push(JSON.parse(String(data))));
    return { client, session, conversation, finished, hangups, received };
  }

  const send = (client: WebSocket, frame: unknown) => client.send(JSON.stringify(frame));

  it('forwards decoded caller events in order, answers on the stream, and reports the outcome', async () => {
    const h = connect();
    await once(h.client, 'open');
    const audio = Buffer.from([0xff, 0x7f, 0x00, 0x10]);
    for (const frame of [
      frames.connected,
      frames.start,
      frames.media(audio),
      frames.media(Buffer.from([9]), 'outbound'),
      frames.mark,
      frames.dtmf,
    ]) {
      send(h.client, frame);
    }
    const closed = once(h.client, 'close');
    send(h.client, frames.stop);
    const session = await h.session;
    await session.finished;
    const conversation = await h.conversation;
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_NORMAL);

    // `connected` and the outbound track never reach the pipeline.
    expect(conversation.events).toEqual([
      { type: 'started', callId: 'CA1', streamId: 'MZ1', params: { callId: 'call_spec' } },
      { type: 'audio', payload: audio, timestamp: 20 },
      { type: 'played', mark: 'utt-1' },
      { type: 'dtmf', digit: '5' },
      { type: 'stopped' },
    ]);
    // What the conversation sent went out as carrier_b media on the stream `start` named.
    expect(h.received).toEqual([
      { event: 'media', streamSid: 'MZ1', media: { payload: Buffer.from([1, 2, 3]).toString('base64') } },
    ]);
    expect(h.finished).toEqual([{ endCallReason: null, mediaSeconds: 1.5, recording: null }]);
  });

  it('drops a key that is no keypad key without cutting the stream, and passes a lowercase a-d as A-D', async () => {
    const h = connect();
    await once(h.client, 'open');
    send(h.client, frames.start);
    for (const digit of ['x', '10', ' ', 'b'])
      send(h.client, { ...frames.dtmf, dtmf: { track: 'inbound_track', digit } });
    const closed = once(h.client, 'close');
    send(h.client, frames.stop);
    const session = await h.session;
    await session.finished;
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_NORMAL);
    const conversation = await h.conversation;
    expect(conversation.events.filter((e) => e.type === 'dtmf')).toEqual([{ type: 'dtmf', digit: 'B' }]);
  });

  it('holds events that arrive while the conversation is being built and feeds them in order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = connect(async (transport) => {
      await gate;
      return new FakeConversation(transport);
    });
    await once(h.client, 'open');
    send(h.client, frames.start);
    send(h.client, frames.media(Buffer.from([1])));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const conversation = await h.conversation;
    send(h.client, frames.stop);
    await (
      await h.session
    ).finished;
    expect(conversation.events.map((e) => e.type)).toEqual(['started', 'audio', 'stopped']);
  });

  it('closes the socket with a reason on a frame the protocol does not allow, and the call still reports', async () => {
    const h = connect();
    await once(h.client, 'open');
    send(h.client, frames.start);
    const closed = once(h.client, 'close');
    h.client.send('{"event":"media","media":{"track":"inbound"}}');
    const [code, reason] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_INVALID_PAYLOAD);
    expect(String(reason)).toMatch(/^invalid carrier_b message: invalid_field/);
    await (
      await h.session
    ).finished;
    expect((await h.conversation).closed).toBe(true);
    // The call ends for it, hung up through the carrier (the conversation's part), not as a caller's hang-up.
    expect((await h.conversation).cutReason).toBe(MediaStreamEndReasons.protocolError);
    expect(h.finished).toHaveLength(1);
  });

  it('tells the conversation when the carrier drops the socket without a stop', async () => {
    const h = connect();
    await once(h.client, 'open');
    send(h.client, frames.start);
    const conversation = await h.conversation;
    h.client.terminate();
    await (
      await h.session
    ).finished;
    expect(conversation.closed).toBe(true);
    expect(h.finished).toEqual([{ endCallReason: null, mediaSeconds: 0, recording: null }]);
  });

  it('passes an end from outside (the drain) to the conversation', async () => {
    const h = connect();
    await once(h.client, 'open');
    send(h.client, frames.start);
    const conversation = await h.conversation;
    const session = await h.session;
    expect(session.end('replica_draining')).toBe(true);
    // A second end (the balance guard after the drain) finds the call already ending.
    expect(session.end('insufficient_balance')).toBe(false);
    await session.finished;
    expect(conversation.endedWith).toBe('replica_draining');
    expect(h.finished[0].endCallReason).toBe('replica_draining');
  });

  it('terminates an ended call at once: the socket closes before the outcome is reported, nothing more is sent', async () => {
    const h = connect();
    await once(h.client, 'open');
    send(h.client, frames.start);
    const conversation = await h.conversation;
    const session = await h.session;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sentBefore = h.received.length;
    const closed = once(h.client, 'close');
    expect(session.terminate()).toBe(true);
    expect(conversation.terminated).toBe(true);
    const [code, reason] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_NORMAL);
    expect(String(reason)).toBe('call ended');
    expect(h.finished).toEqual([]);
    // Nothing the conversation sends now reaches the carrier; no farewell, no hang-up, no other end.
    conversation.transport.send({ type: 'sendAudio', payload: Buffer.from([4]) });
    expect(session.terminate()).toBe(false);
    expect(session.end('insufficient_balance')).toBe(false);
    expect(session.answeredBy('machine')).toBe(false);
    await session.finished;
    expect(h.received).toHaveLength(sentBefore);
    expect(h.hangups).toEqual([]);
    expect(conversation.endedWith).toBeNull();
    expect(h.finished).toEqual([{ endCallReason: null, mediaSeconds: 3, recording: null }]);
  });

  it('a call that ends while its conversation is being built is terminated once built, its held events dropped', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = connect(async (transport) => {
      await gate;
      return new FakeConversation(transport);
    });
    await once(h.client, 'open');
    send(h.client, frames.start);
    send(h.client, frames.media(Buffer.from([1])));
    const session = await h.session;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = once(h.client, 'close');
    expect(session.terminate()).toBe(true);
    await closed;
    release();
    const conversation = await h.conversation;
    await session.finished;
    expect(conversation.terminated).toBe(true);
    expect(conversation.events).toEqual([]);
    expect(h.hangups).toEqual([]);
    expect(h.finished).toHaveLength(1);
  });

  it('passes a late machine answer to the conversation, and none once the call is ending', async () => {
    const h = connect();
    await once(h.client, 'open');
    send(h.client, frames.start);
    const conversation = await h.conversation;
    const session = await h.session;
    expect(session.answeredBy('human')).toBe(false);
    expect(session.answeredBy('machine')).toBe(true);
    await session.finished;
    expect(conversation.answeredWith).toBe('machine');
    expect(h.finished[0].endCallReason).toBe('voicemail_detected');
    expect(session.answeredBy('machine')).toBe(false);
  });

  it.each([
    [true, 'machine'],
    [false, null],
  ])(
    'a machine answer while the conversation is being built (voicemail detection %s) reaches it once built',
    async (detection, expected) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const context = { ...CONTEXT, agent: { voicemailDetectionEnabled: detection } } as VoiceCallContext;
      const h = connect(async (transport) => {
        await gate;
        return new FakeConversation(transport);
      }, context);
      await once(h.client, 'open');
      send(h.client, frames.start);
      const session = await h.session;
      expect(session.answeredBy('machine')).toBe(detection);
      release();
      const conversation = await h.conversation;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(conversation.answeredWith).toBe(expected);
      send(h.client, frames.stop);
      await session.finished;
    },
  );

  it('survives a conversation that throws: the stream closes, the conversation is ended, the call reports', async () => {
    const h = connect(async (transport) => {
      const conversation = new FakeConversation(transport);
      conversation.onEvent = (event) => {
        if (event.type === 'audio') throw new Error('pipeline bug');
        FakeConversation.prototype.onEvent.call(conversation, event);
      };
      return conversation;
    });
    await once(h.client, 'open');
    send(h.client, frames.start);
    const conversation = await h.conversation;
    const closed = once(h.client, 'close');
    send(h.client, frames.media(Buffer.from([1])));
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(CLOSE_INTERNAL_ERROR);
    await (
      await h.session
    ).finished;
    expect(conversation.endedWith).toBe(PIPELINE_FAILED_REASON);
    expect(h.finished[0].endCallReason).toBe(PIPELINE_FAILED_REASON);
  });

  it('hangs up and reports a failed pipeline when the conversation fails mid-call', async () => {
    const h = connect(async (transport) => {
      const conversation = new FakeConversation(transport);
      Object.defineProperty(conversation, 'done', { value: Promise.reject(new Error('broken')) });
      return conversation;
    });
    await once(h.client, 'open');
    await (
      await h.session
    ).finished;
    expect(h.hangups).toEqual([PIPELINE_FAILED_REASON]);
    expect(h.finished[0].endCallReason).toBe(PIPELINE_FAILED_REASON);
  });

  it('hangs up and reports a failed pipeline when the conversation cannot start', async () => {
    const h = connect(async () => {
      throw new Error('no providers');
    });
    await once(h.client, 'open');
    const closed = once(h.client, 'close');
    await (
      await h.session
    ).finished;
    await closed;
    expect(h.hangups).toEqual([PIPELINE_FAILED_REASON]);
    expect(h.finished).toEqual([
      { endCallReason: PIPELINE_FAILED_REASON, mediaSeconds: expect.any(Number), recording: null },
    ]);
  });

  describe('per-stream bounds', () => {
    it('ignores and counts events of unknown types; the stream carries on', async () => {
      const before = await counterValue(ignoredStreamMessages, { protocol: 'carrier_b' });
      const h = connect();
      await once(h.client, 'open');
      send(h.client, frames.start);
      send(h.client, { event: 'transcription', streamSid: 'MZ1', transcription: { text: 'hi' } });
      send(h.client, { event: 'futureThing', sequenceNumber: '9' });
      send(h.client, frames.media(Buffer.from([1, 2])));
      const closed = once(h.client, 'close');
      send(h.client, frames.stop);
      const session = await h.session;
      await session.finished;
      const [code] = (await closed) as [number, Buffer];
      expect(code).toBe(CLOSE_NORMAL);
      expect((await h.conversation).events.map((e) => e.type)).toEqual(['started', 'audio', 'stopped']);
      expect(await counterValue(ignoredStreamMessages, { protocol: 'carrier_b' })).toBe(before + 2);
    });

    it('still refuses a malformed frame of a known type', async () => {
      const h = connect();
      await once(h.client, 'open');
      const closed = once(h.client, 'close');
      send(h.client, { event: 'mark', streamSid: 'MZ1', mark: { name: 42 } });
      const [code] = (await closed) as [number, Buffer];
      expect(code).toBe(CLOSE_INVALID_PAYLOAD);
    });

    it('accepts caller audio up to real time plus the burst, and drops and counts the rest', async () => {
      const before = await counterValue(inboundAudioDropped);
      const h = connect(undefined, CONTEXT, { ...LOOSE, audioBurstMs: 1000 });
      await once(h.client, 'open');
      send(h.client, frames.start);
      // Four seconds of 20 ms frames at once: only the 1 s burst (plus what the clock earned meanwhile) passes.
      for (let i = 0; i < 200; i++) send(h.client, frames.media(Buffer.alloc(160, 0xff)));
      send(h.client, frames.stop);
      await (
        await h.session
      ).finished;
      expect(h.finished[0].endCallReason).toBeNull();
      const audio = (await h.conversation).events.filter((e) => e.type === 'audio');
      expect(audio.length).toBeGreaterThanOrEqual(50);
      expect(audio.length).toBeLessThan(80);
      const dropped = (await counterValue(inboundAudioDropped)) - before;
      expect(dropped).toBeCloseTo(((200 - audio.length) * 160) / 8000, 5);
    });

    it('cuts a stream that floods messages far beyond what its audio allows (CPU, not only memory)', async () => {
      const h = connect(undefined, CONTEXT, { ...LOOSE, audioBurstMs: 100 });
      await once(h.client, 'open');
      send(h.client, frames.start);
      const closed = once(h.client, 'close');
      // Marks cost no audio, but parsing 500 of them at once is 16x what 100 ms of audio allows.
      for (let i = 0; i < 500; i++) send(h.client, frames.mark);
      const [code, reason] = (await closed) as [number, Buffer];
      expect(code).toBe(CLOSE_POLICY_VIOLATION);
      expect(String(reason)).toMatch(/messages far faster than real time/);
      await (
        await h.session
      ).finished;
      expect(h.finished[0].endCallReason).toBe(MediaStreamEndReasons.protocolError);
    });

    it('closes the stream (1009) on a message over the size limit and ends the call for it', async () => {
      const before = await counterValue(cutStreams, { reason: MediaStreamEndReasons.protocolError });
      const h = connect();
      await once(h.client, 'open');
      send(h.client, frames.start);
      const closed = once(h.client, 'close');
      send(h.client, frames.media(Buffer.alloc(MAX_MESSAGE_BYTES, 0xff)));
      const [code] = (await closed) as [number, Buffer];
      expect(code).toBe(1009);
      await (
        await h.session
      ).finished;
      expect((await h.conversation).cutReason).toBe(MediaStreamEndReasons.protocolError);
      expect(h.finished[0].endCallReason).toBe(MediaStreamEndReasons.protocolError);
      expect(await counterValue(cutStreams, { reason: MediaStreamEndReasons.protocolError })).toBe(
        before + 1,
      );
    });

    it('bounds the events held before the conversation starts by their size, not only their number', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const h = connect(async (transport) => {
        await gate;
        return new FakeConversation(transport);
      });
      await once(h.client, 'open');
      const closed = once(h.client, 'close');
      send(h.client, frames.start);
      // 40 marks of ~7 KB each: far fewer than the 500 events held, but over the 256 KiB.
      const name = 'm'.repeat(7000);
      for (let i = 0; i < 40; i++) send(h.client, { ...frames.mark, mark: { name } });
      const [code] = (await closed) as [number, Buffer];
      expect(code).toBe(CLOSE_INTERNAL_ERROR);
      release();
      await (
        await h.session
      ).finished;
      expect((await h.conversation).cutReason).toBe(PIPELINE_FAILED_REASON);
    });

    it('closes a stream that sends nothing for the silence deadline and ends its call (media_stream_silent)', async () => {
      const h = connect(undefined, CONTEXT, { ...LOOSE, inboundSilenceMs: 300 });
      await once(h.client, 'open');
      const closed = once(h.client, 'close');
      send(h.client, frames.start);
      const sentAt = Date.now();
      const [code, reason] = (await closed) as [number, Buffer];
      expect(code).toBe(CLOSE_POLICY_VIOLATION);
      expect(String(reason)).toMatch(/nothing arrived for 300 ms/);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(290);
      await (
        await h.session
      ).finished;
      expect(h.finished[0].endCallReason).toBe(MediaStreamEndReasons.silent);
    });

    it('keeps a stream that sends and answers pings, however long', async () => {
      const h = connect(undefined, CONTEXT, { ...LOOSE, inboundSilenceMs: 200, pingIntervalMs: 100 });
      await once(h.client, 'open');
      send(h.client, frames.start);
      const timer = setInterval(() => send(h.client, frames.media(Buffer.alloc(160, 0xff))), 20);
      await sleep(800);
      clearInterval(timer);
      expect(h.client.readyState).toBe(WebSocket.OPEN);
      const closed = once(h.client, 'close');
      send(h.client, frames.stop);
      await closed;
      expect(h.finished[0].endCallReason).toBeNull();
    });

    it('drops a stream that stops answering pings (it stopped reading) and ends its call', async () => {
      const h = connect(undefined, CONTEXT, { ...LOOSE, pingIntervalMs: 100 });
      await once(h.client, 'open');
      send(h.client, frames.start);
      const conversation = await h.conversation;
      // Still sending, no longer reading: pings go unanswered.
      h.client.pause();
      const timer = setInterval(() => send(h.client, frames.media(Buffer.alloc(160, 0xff))), 20);
      await (
        await h.session
      ).finished;
      clearInterval(timer);
      expect(conversation.cutReason).toBe(MediaStreamEndReasons.unresponsive);
      h.client.terminate();
    });

    it('drops a stream whose carrier stops reading once what waits for it passes the limit', async () => {
      const h = connect(undefined, CONTEXT, { ...LOOSE, maxBufferedBytes: 64 * 1024 });
      await once(h.client, 'open');
      send(h.client, frames.start);
      const conversation = await h.conversation;
      h.client.pause();
      // The agent keeps talking to a carrier that reads nothing: the kernel's buffers fill, then the replica's.
      const chunk = Buffer.alloc(16 * 1024, 0xff);
      const timer = setInterval(() => conversation.transport.send({ type: 'sendAudio', payload: chunk }), 1);
      await (
        await h.session
      ).finished;
      clearInterval(timer);
      expect(conversation.cutReason).toBe(MediaStreamEndReasons.unresponsive);
      h.client.terminate();
    });
  });
});
