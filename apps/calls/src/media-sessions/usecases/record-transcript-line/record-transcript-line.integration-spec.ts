// calls.voice.transcript as the voice service sends it to the running calls module: each line said on a call is
// kept in its session's transcript, timed on the call's media clock; a repeat on its stream, a line said after the
// call ended, another partner's call and a malformed line are refused or ignored.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode, VoiceTranscriptRequest } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';

describe('record a transcript line', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const say = (line: Partial<VoiceTranscriptRequest> & Pick<VoiceTranscriptRequest, 'callId'>) =>
    calls.send('calls.voice.transcript', null, {
      role: 'user',
      content: 'Hello?',
      atMs: 0,
      callSeconds: 0,
      ...line,
    });

  it('keeps the caller and agent lines on the media clock, with the agent turn’s latency and providers', async () => {
    const startedAt = new Date('2026-03-01T10:00:00.000Z');
    const call = await saveSandboxCall(dataSource, { startedAt });

    expect(await say({ callId: call.id, content: 'Hi, who is this?', atMs: 1500, callSeconds: 2 })).toEqual({
      ok: true,
    });
    await say({
      callId: call.id,
      role: 'bot',
      content: 'This is Maya from support.',
      atMs: 3200,
      callSeconds: 4,
      latency: {
        endpointing_ms: 250,
        stt_final_ms: 120.4,
        llm_first_token_ms: 300,
        tts_first_byte_ms: 90,
        first_frame_out_ms: 20,
        voice_to_voice_ms: 530,
      },
      providers: { stt: 'deepgram', llm: 'openai', tts: 'openai', llm_model: 'gpt-4o-mini' },
      usage: { input_tokens: 210, output_tokens: 12 },
    });

    const { session } = await storedCall(dataSource, call.id);
    expect(session.transcript).toEqual([
      { role: 'user', content: 'Hi, who is this?', timestamp: '2026-03-01T10:00:01.500Z' },
      {
        role: 'bot',
        content: 'This is Maya from support.',
        timestamp: '2026-03-01T10:00:03.200Z',
        latency: {
          endpointing_ms: 250,
          stt_final_ms: 120,
          llm_first_token_ms: 300,
          tts_first_byte_ms: 90,
          first_frame_out_ms: 20,
          voice_to_voice_ms: 530,
        },
        providers: { stt: 'deepgram', llm: 'openai', tts: 'openai', llm_model: 'gpt-4o-mini' },
        usage: { input_tokens: 210, output_tokens: 12 },
      },
    ]);
    const [{ live_seconds }] = (await dataSource.query(
      `SELECT live_seconds FROM calls.call_sessions WHERE call_id = $1`,
      [call.id],
    )) as { live_seconds: number }[];
    expect(live_seconds).toBe(4);
  });

  it('keeps a line repeated on its stream once', async () => {
    const call = await saveSandboxCall(dataSource);
    const line = { callId: call.id, content: 'Yes.', streamId: 'stream-1', seq: 0 };
    await say(line);
    await say(line);
    await say({ ...line, content: 'And one more thing.', seq: 1 });

    const { session } = await storedCall(dataSource, call.id);
    expect(session.transcript.map((l) => l.content)).toEqual(['Yes.', 'And one more thing.']);
  });

  it('refuses a line said after the call ended, and keeps the one cut by the hang-up', async () => {
    const call = await saveSandboxCall(dataSource, { status: 'completed', durationSeconds: 10 });

    await say({ callId: call.id, content: 'Bye', atMs: 10_500 });
    await expect(say({ callId: call.id, content: 'Still there?', atMs: 12_000 })).rejects.toMatchObject({
      code: ErrorCode.INVALID_STATE,
    });
    expect((await storedCall(dataSource, call.id)).session.transcript.map((l) => l.content)).toEqual(['Bye']);
  });

  // The voice service sends without a partner; a command that names one must name the call's.
  it("refuses another partner's call, an unknown call and a malformed line", async () => {
    const call = await saveSandboxCall(dataSource);
    await expect(calls.send('calls.voice.transcript', randomUUID(), lineOf(call.id))).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    await expect(say({ callId: randomUUID() })).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(say({ callId: call.id, role: 'system' as 'user' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(
      say({ callId: call.id, role: 'bot', providers: { stt: 'nobody', llm: null, tts: 'openai' } as never }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(say({ callId: call.id, atMs: -1 })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    expect((await storedCall(dataSource, call.id)).session.transcript).toEqual([]);
  });
});

const lineOf = (callId: string): VoiceTranscriptRequest => ({
  callId,
  role: 'user',
  content: 'Hello?',
  atMs: 0,
  callSeconds: 0,
});
