import { closeOfflineSpeech, synthesizeOfflineSpeech } from '@vap/media';
import { waitFor } from '@vap/testing';
import { LlmError } from '../llm-error';
import { FakeOpenAiRealtimeServer } from '../testing/fake-openai-realtime-server';
import { callerSays, MEDIA_RATE, RecordedEvents } from '../testing/realtime-session-kit';
import { openOpenAiRealtime, openAiRealtimeUrl } from './openai-realtime';
import type { RealtimeSession, RealtimeSessionConfig } from './realtime-session';

const TOOLS = [
  {
    name: 'check_order',
    description: 'Looks an order up',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
];

describe('OpenAI Realtime session', () => {
  let fake: FakeOpenAiRealtimeServer;
  let session: RealtimeSession | null = null;

  beforeAll(async () => {
    fake = await FakeOpenAiRealtimeServer.start({ apiKey: 'sk-partner-realtime' });
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
    apiKey: 'sk-partner-realtime',
    model: 'gpt-realtime',
    instructions: 'You are Maya from Acme.',
    voice: 'marin',
    tools: TOOLS,
    temperature: 0.8,
    maxTokens: 300,
    sampleRate: MEDIA_RATE,
    timeoutMs: 3000,
    ...overrides,
  });

  const open = async (recorded: RecordedEvents, overrides: Partial<RealtimeSessionConfig> = {}) =>
    (session = await openOpenAiRealtime(config(overrides), recorded.onEvent));

  it('puts the session on the model URL of the API base', () => {
    expect(openAiRealtimeUrl('https://api.openai.com/v1', 'gpt-realtime')).toBe(
      'wss://api.openai.com/v1/realtime?model=gpt-realtime',
    );
    expect(openAiRealtimeUrl('https://api.openai.com', 'gpt-4o-realtime-preview')).toBe(
      'wss://api.openai.com/v1/realtime?model=gpt-4o-realtime-preview',
    );
  });

  it('opens with the key, the beta interface and the agent’s configuration, the context before any reply', async () => {
    const recorded = new RecordedEvents();
    await open(recorded, {
      context: [
        { role: 'user', text: 'I called about my order.' },
        { role: 'assistant', text: 'Let me help you with it.' },
      ],
    });
    const connection = fake.last!;
    expect(connection).toMatchObject({
      apiKey: 'sk-partner-realtime',
      beta: 'realtime=v1',
      model: 'gpt-realtime',
    });
    expect(connection.sessionUpdates[0]).toEqual({
      modalities: ['audio', 'text'],
      instructions: 'You are Maya from Acme.',
      voice: 'marin',
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
      input_audio_transcription: { model: 'whisper-1' },
      turn_detection: { type: 'server_vad', create_response: true, interrupt_response: true },
      tools: [{ type: 'function', ...TOOLS[0] }],
      tool_choice: 'auto',
      temperature: 0.8,
      max_response_output_tokens: 300,
    });
    await waitFor(() => connection.items.length === 2 || undefined, { timeoutMs: 2000 });
    expect(connection.items.map((i) => [i.role, (i.content as { text: string }[])[0]])).toEqual([
      ['user', { type: 'input_text', text: 'I called about my order.' }],
      ['assistant', { type: 'text', text: 'Let me help you with it.' }],
    ]);
  });

  it('hears the caller at 24 kHz and answers with audio at the media rate, both sides transcribed', async () => {
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Where is my order?');
    expect(await recorded.next('caller.speech_started')).toBeDefined();
    expect((await recorded.next('caller.transcript')).text).toBe('Where is my order?');
    const done = await recorded.next('response.done');
    expect(done).toMatchObject({
      status: 'completed',
      transcript: 'You said Where is my order.',
      toolCalls: [],
    });
    expect(done.usage).toEqual(fake.last!.responses[0].usage);
    // The caller's audio went up resampled: three samples (six bytes) for each one at 8 kHz, within the filter's lag.
    const sentSamples = fake.last!.audioBytesIn / 2;
    const speech = await synthesizeOfflineSpeech('Where is my order?');
    const expected = (Math.ceil(speech.length / 160) * 160 + 400 * 8) * 3;
    expect(Math.abs(sentSamples - expected)).toBeLessThan(200);
    // The agent's audio came down at 8 kHz: as long as the fake's reply, and its words read back.
    const replyMs = fake.last!.responses[0].audioMs;
    expect(Math.abs((recorded.samples(done.responseId) * 1000) / MEDIA_RATE - replyMs)).toBeLessThan(5);
    expect(recorded.heard(done.responseId)).toEqual(['You said Where is my order.']);
    expect(
      recorded
        .of('response.transcript')
        .map((e) => e.delta)
        .join(''),
    ).toBe('You said Where is my order.');
  }, 30_000);

  it('streams a tool call whole, and answers with its result', async () => {
    fake.script = (input) =>
      input.kind === 'caller'
        ? { say: 'Let me check.', toolCalls: [{ name: 'check_order', arguments: { order_id: 'A-17' } }] }
        : input.kind === 'tool_results'
          ? { say: `Order ${input.results[0].output}.` }
          : null;
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Check order A-17.');
    const first = await recorded.next('response.done');
    expect(first.toolCalls).toEqual([
      { id: expect.any(String), name: 'check_order', arguments: { order_id: 'A-17' } },
    ]);
    expect(first.toolCalls[0].id).toBe(fake.last!.responses[0].toolCalls[0].callId);
    s.sendToolResults([{ callId: first.toolCalls[0].id, name: 'check_order', output: 'shipped' }], true);
    const second = await recorded.next('response.done', 1);
    expect(second.transcript).toBe('Order shipped.');
    expect(recorded.heard(second.responseId)).toEqual(['Order shipped.']);
    const output = fake.last!.items.find((i) => i.type === 'function_call_output');
    expect(output).toMatchObject({ call_id: first.toolCalls[0].id, output: 'shipped' });
  }, 30_000);

  it('on barge-in cancels the reply under way and truncates its audio to what was played', async () => {
    await fake.close();
    fake = await FakeOpenAiRealtimeServer.start({ apiKey: 'sk-partner-realtime', chunkGapMs: 40 });
    fake.script = () => ({ say: 'We have three plans for homes and small offices, each with support.' });
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Tell me about your plans.');
    const started = await recorded.next('response.started');
    // Four chunks of 100 ms came; the caller heard 300 ms of them.
    await recorded.next('response.audio', 3);
    s.interrupt(300);
    const done = await recorded.next('response.done');
    expect(done).toMatchObject({ responseId: started.responseId, status: 'cancelled', toolCalls: [] });
    const connection = fake.last!;
    expect(connection.cancels).toBe(1);
    expect(connection.truncates).toEqual([
      { itemId: connection.responses[0].itemId, contentIndex: 0, audioEndMs: 300 },
    ]);
    expect(connection.responses[0].status).toBe('cancelled');
    expect(connection.responses[0].chunksSent).toBeLessThan(Math.ceil(connection.responses[0].audioMs / 100));
    // Audio of the cancelled reply that was still on its way is not passed on.
    const audioAfter = recorded.events
      .slice(recorded.events.indexOf(done))
      .filter((e) => e.type === 'response.audio');
    expect(audioAfter).toEqual([]);
    // A cancel that came too late (the server had already ended the reply) leaves the session working.
    s.interrupt(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(recorded.of('failed')).toEqual([]);
  }, 30_000);

  it('tells the caller started speaking over the agent (the server cancels the reply itself)', async () => {
    await fake.close();
    fake = await FakeOpenAiRealtimeServer.start({ apiKey: 'sk-partner-realtime', chunkGapMs: 40 });
    fake.script = (input) =>
      input.kind === 'caller' && /plans/.test(input.text)
        ? { say: 'We have three plans for homes and small offices, each with support.' }
        : { say: 'Sure.' };
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Tell me about your plans.');
    await recorded.next('response.audio');
    await callerSays(s, 'Stop.');
    await recorded.next('caller.speech_started', 1);
    const cut = await recorded.next('response.done');
    expect(cut.status).toBe('cancelled');
    expect((await recorded.next('response.done', 1)).transcript).toBe('Sure.');
  }, 30_000);

  it('refuses a wrong key with the provider’s status, never quoting the key', async () => {
    const error = await openOpenAiRealtime(config({ apiKey: 'sk-wrong-key' }), () => undefined).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ failure: 'status', upstreamStatus: 401 });
    expect((error as Error).message).toMatch(/OpenAI Realtime refused the session: HTTP 401/);
    expect((error as Error).message).not.toContain('sk-wrong-key');
  });

  it('fails to open within the deadline when the provider never answers', async () => {
    fake.silentOpen = true;
    const started = Date.now();
    const error = await openOpenAiRealtime(config({ timeoutMs: 300 }), () => undefined).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails the session when a reply stalls past the deadline, and closes it', async () => {
    fake.fail('stall');
    const recorded = new RecordedEvents();
    const s = await open(recorded, { timeoutMs: 400 });
    await callerSays(s, 'Hello there.');
    const failed = await recorded.next('failed');
    expect(failed.error).toMatchObject({ failure: 'timeout' });
    expect(failed.error.message).toMatch(/sent nothing for 400 ms/);
    await waitClosed(fake);
  }, 30_000);

  it('fails the session on a server error', async () => {
    fake.fail('error');
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    await callerSays(s, 'Hello there.');
    const failed = await recorded.next('failed');
    expect(failed.error.message).toMatch(/server_error/);
  }, 30_000);

  it('leaves nothing running after close: the socket goes, no event comes', async () => {
    const recorded = new RecordedEvents();
    const s = await open(recorded);
    s.close();
    await waitClosed(fake);
    s.sendAudio(new Int16Array(160));
    s.respond();
    await new Promise((r) => setTimeout(r, 100));
    expect(recorded.events).toEqual([]);
  });
});

async function waitClosed(fake: FakeOpenAiRealtimeServer): Promise<void> {
  await waitFor(() => fake.last!.closed ?? undefined, {
    timeoutMs: 5000,
    description: 'the socket to close',
  });
}
