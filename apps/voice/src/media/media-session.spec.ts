import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { VoiceCallContext } from '@vap/contracts';
import { MediaStreamEvent, mediaStreamCodec } from '@vap/media';
import type { ConversationResult, LiveConversation, MediaTransport } from '../conversation';
import {
  CLOSE_INTERNAL_ERROR,
  CLOSE_INVALID_PAYLOAD,
  CLOSE_NORMAL,
  MediaSession,
  PIPELINE_FAILED_REASON,
} from './media-session';

const CONTEXT = {
  callId: 'call_spec',
  partnerId: 'partner_spec',
  agentId: 'agent_spec',
  agent: { voicemail_detection_enabled: true },
} as VoiceCallContext;

/** Records what the session feeds it; settles `done` when the stream stops or closes, or when ended. */
class FakeConversation implements LiveConversation {
  readonly events: MediaStreamEvent[] = [];
  closed = false;
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

  onClosed(): void {
    this.closed = true;
    if (this.terminated) return;
    this.settle({ endCallReason: null, mediaSeconds: 0, recording: null });
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
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
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
      const context = { ...CONTEXT, agent: { voicemail_detection_enabled: detection } } as VoiceCallContext;
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
});
