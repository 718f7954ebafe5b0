import { closeOfflineSpeech, synthesizeOfflineSpeech } from '@vap/media';
import { waitFor } from '@vap/testing';
import { LlmError } from '../llm-error';
import { FakeGeminiLiveServer } from '../testing/fake-gemini-live-server';
import { callerSays, MEDIA_RATE, RecordedEvents } from '../testing/realtime-session-kit';
import { geminiLiveUrl, geminiSchema, openGeminiLive } from './gemini-live';
import type { RealtimeSession, RealtimeSessionConfig } from './realtime-session';

const TOOLS = [
  {
    name: 'check_order',
    description: 'Looks an order up',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, note: { type: ['string', 'null'] } },
      required: ['order_id'],
      additionalProperties: false,
    },
  },
  { name: 'end_call', description: 'Ends the call', parameters: { type: 'object', properties: {} } },
];

describe('Gemini Live session', () => {
  let fake: FakeGeminiLiveServer;
  let session: RealtimeSession | null = null;

  beforeAll(async () => {
    fake = await FakeGeminiLiveServer.start({ apiKey: 'partner-gemini-key' });
  });

  afterEach(() => {
    session?.close();
    session = null;
    fake.heal();
    fake.script = (input) =>
      input.kind === 'caller' ? { say: `You said ${input.text.replace(/[.?!]+$/, '')}.` } : null;
  });

  afterAll(async () => {
    await fake.close();
    await closeOfflineSpeech();
  });

  const config = (overrides: Partial<RealtimeSessionConfig> = {}): RealtimeSessionConfig => ({
    baseUrl: fake.baseUrl,
    apiKey: 'partner-gemini-key',
    model: 'gemini-live-2.5-flash-preview',
    instructions: 'You are Maya from Acme.',
    voice: 'Puck',
    tools: TOOLS,
    temperature: 0.7,
    maxTokens: 256,
    sampleRate: MEDIA_RATE,
    timeoutMs: 3000,
    ...overrides,
  });

  const open = async (recorded: RecordedEvents, overrides: Partial<RealtimeSessionConfig> = {}) =>
    (session = await openGeminiLive(config(overrides), recorded.onEvent));

  it('finds the Live socket on the API base, with or without its version path', () => {
    const path = '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';
    expect(geminiLiveUrl('https://generativelanguage.googleapis.com')).toBe(
      `wss://generativelanguage.googleapis.com${path}`,
    );
    expect(geminiLiveUrl('https://generativelanguage.googleapis.com/v1beta/')).toBe(
      `wss://generativelanguage.googleapis.com${path}`,
    );
  });

  it('gives tools in Gemini’s schema: its keys only, types in capitals, nullable types', () => {
    expect(geminiSchema(TOOLS[0].parameters)).toEqual({
      type: 'OBJECT',
      properties: { order_id: { type: 'STRING' }, note: { type: 'STRING', nullable: true } },
      required: ['order_id'],
    });
  });

  it('opens with the key in a header and the agent’s setup, the context after it', async () => {
    const recorded = new RecordedEvents();
    await open(recorded, { context: [{ role: 'assistant', text: 'Hello, this is Maya.' }] });
    const connection = fake.last!;
    expect(connection).toMatchObject({ apiKey: 'partner-gemini-key', auth: 'header' });
    expect(connection.setup).toEqual({
      model: 'models/gemini-live-2.5-flash-preview',
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } },
        temperature: 0.7,
        maxOutputTokens: 256,
      },
      systemInstruction: { parts: [{ text: 'You are Maya from Acme.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'check_order',
              description: 'Looks an order up',
              parameters: geminiSchema(TOOLS[0].parameters),
            },
            { name: 'end_call', description: 'Ends the call' },
          ],
        },
      ],
      inputAudioTranscription: {},
      outputAudioTranscription: {},
    });
    await waitFor(() => connection.clientContents[0], { timeoutMs: 2000 });
    expect(connection.clientContents[0]).toEqual({
      turns: [{ role: 'model', parts: [{ text: 'Hello, this is Maya.' }] }],
      turnComplete: false,
    });
  });

  it('hears the caller at 16 kHz and answers with audio at the media rate, both sides transcribed', async () => {
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Where is my order?');
    expect((await recorded.next('caller.transcript')).text).toBe('Where is my order?');
    const done = await recorded.next('response.done');
    expect(done).toMatchObject({
      status: 'completed',
      transcript: 'You said Where is my order.',
      toolCalls: [],
    });
    expect(done.usage).toEqual(fake.last!.turns[0].usage);
    expect(fake.last!.mimeTypes).toEqual(['audio/pcm;rate=16000']);
    const speech = await synthesizeOfflineSpeech('Where is my order?');
    const expected = (Math.ceil(speech.length / 160) * 160 + 400 * 8) * 2;
    expect(Math.abs(fake.last!.audioBytesIn / 2 - expected)).toBeLessThan(200);
    expect(recorded.heard(done.responseId)).toEqual(['You said Where is my order.']);
    // The caller's words are told before the reply starts.
    const order = recorded.events.map((e) => e.type);
    expect(order.indexOf('caller.transcript')).toBeLessThan(order.indexOf('response.started'));
  }, 30_000);

  it('runs a tool call round trip: the call with its id and arguments, the result back, the turn goes on', async () => {
    fake.script = (input) =>
      input.kind === 'caller'
        ? { toolCalls: [{ name: 'check_order', arguments: { order_id: 'A-17' } }] }
        : input.kind === 'tool_results'
          ? { say: `Order ${input.results[0].output}.` }
          : null;
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Check order A-17.');
    const first = await recorded.next('response.done');
    expect(first.toolCalls).toEqual([
      { id: fake.last!.turns[0].toolCalls[0].id, name: 'check_order', arguments: { order_id: 'A-17' } },
    ]);
    s.sendToolResults([{ callId: first.toolCalls[0].id, name: 'check_order', output: 'shipped' }], true);
    const second = await recorded.next('response.done', 1);
    expect(second.transcript).toBe('Order shipped.');
    expect(recorded.heard(second.responseId)).toEqual(['Order shipped.']);
    expect(fake.last!.toolResponses).toEqual([
      {
        functionResponses: [
          { id: first.toolCalls[0].id, name: 'check_order', response: { output: 'shipped' } },
        ],
      },
    ]);
  }, 30_000);

  it('stops the reply when the caller speaks over it (interrupted) and drops its remaining audio', async () => {
    await fake.close();
    fake = await FakeGeminiLiveServer.start({ apiKey: 'partner-gemini-key', chunkGapMs: 40 });
    fake.script = (input) =>
      input.kind === 'caller' && /plans/.test(input.text)
        ? { say: 'We have three plans for homes and small offices, each with support.' }
        : { say: 'Sure.' };
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Tell me about your plans.');
    await recorded.next('response.audio');
    await callerSays(s, 'Stop.');
    await recorded.next('caller.speech_started');
    const cut = await recorded.next('response.done');
    expect(cut.status).toBe('cancelled');
    await waitFor(() => fake.last!.turns[0].status === 'interrupted' || undefined, { timeoutMs: 2000 });
    const after = recorded.events.slice(recorded.events.indexOf(cut));
    expect(after.filter((e) => e.type === 'response.audio' && e.responseId === cut.responseId)).toEqual([]);
    expect((await recorded.next('response.done', 1)).transcript).toBe('Sure.');
  }, 30_000);

  it('refuses a wrong key with the provider’s status, never quoting the key', async () => {
    const error = await openGeminiLive(config({ apiKey: 'wrong-gemini-key' }), () => undefined).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ failure: 'status', upstreamStatus: 403 });
    expect((error as Error).message).not.toContain('wrong-gemini-key');
  });

  it('fails to open within the deadline when the setup is never answered', async () => {
    fake.silentOpen = true;
    const started = Date.now();
    const error = await openGeminiLive(config({ timeoutMs: 300 }), () => undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails the session when a reply stalls past the deadline', async () => {
    fake.fail('stall');
    const recorded = new RecordedEvents();
    const s = await open(recorded, { timeoutMs: 400 });
    await callerSays(s, 'Hello there.');
    expect((await recorded.next('failed')).error).toMatchObject({ failure: 'timeout' });
  }, 30_000);

  it('fails the session when the server closes it with an error', async () => {
    fake.fail('error');
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Hello there.');
    const failed = await recorded.next('failed');
    expect(failed.error.message).toMatch(
      /Gemini Live closed the session \(1011: Internal error encountered.\)/,
    );
  }, 30_000);

  it('leaves nothing running after close', async () => {
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    s.close();
    await waitFor(() => fake.last!.closed ?? undefined, { timeoutMs: 5000 });
    s.sendAudio(new Int16Array(160));
    await new Promise((r) => setTimeout(r, 100));
    expect(recorded.events).toEqual([]);
  });
});
