// calls.voice.ended as the voice service sends it to the running calls module when a call's stream closed: the
// stream is marked ended, the call's own recording kept, the speech providers and model keys the platform paid
// for added as sets, and the end reason kept for the carrier's final callback (or set on an ended call that has
// none). A recording under another key and a malformed report are refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode, VoiceEndedRequest } from '@vap/messages';
import { recordingKey } from '../../../recording/recording-store';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, useCallsOnSandbox } from '../../../testing/sandbox-calls';

describe('end a voice session', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const ended = (callId: string, fields: Partial<VoiceEndedRequest> = {}) =>
    calls.send('calls.voice.ended', null, {
      callId,
      endCallReason: null,
      mediaSeconds: 30,
      recording: null,
      ...fields,
    });

  const rowOf = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT c.status, c.end_call_reason, c.end_requested_reason, c.platform_speech_providers,
                c.model_paid_by, s.media_stream, s.media_stream_ended_at IS NOT NULL AS stream_ended_at,
                s.recording_key, s.recording_duration_secs
           FROM calls.calls c JOIN calls.call_sessions s ON s.call_id = c.id WHERE c.id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('ends the live stream and keeps its recording, reason, paid providers and model keys', async () => {
    const call = await saveSandboxCall(dataSource, {}, { mediaStream: 'live', voiceReplicaId: 'replica-1' });
    const key = recordingKey(call.partnerId, call.id);

    expect(
      await ended(call.id, {
        endCallReason: 'agent_ended_call',
        recording: { storageKey: key, durationSeconds: 29.6 },
        platformPaidSpeech: ['deepgram', 'openai', 'deepgram'],
        modelPaidBy: [{ provider: 'openai', model: 'gpt-4o-mini', paidBy: 'platform' }],
      }),
    ).toEqual({ ok: true });
    // A retried report (another replica's stream of the same call) adds to the sets; the first recording stands.
    await ended(call.id, {
      endCallReason: 'user_idle',
      recording: { storageKey: key, durationSeconds: 5 },
      platformPaidSpeech: ['elevenlabs'],
      modelPaidBy: [{ provider: 'openai', model: 'gpt-4o-mini', paidBy: 'platform' }],
    });

    expect(await rowOf(call.id)).toEqual({
      // The carrier's final callback ends the call, taking the requested reason.
      status: 'in_progress',
      end_call_reason: null,
      end_requested_reason: 'agent_ended_call',
      platform_speech_providers: ['deepgram', 'elevenlabs', 'openai'],
      model_paid_by: [{ provider: 'openai', model: 'gpt-4o-mini', paidBy: 'platform' }],
      media_stream: 'ended',
      stream_ended_at: true,
      recording_key: key,
      recording_duration_secs: 30,
    });
    // The carrier is not asked anything: its callbacks end the call.
    expect(carrier.onCall(call.providerCallId!)).toEqual([]);
  });

  it('gives an ended call the reason when it has none', async () => {
    const call = await saveSandboxCall(dataSource, { status: 'completed' }, { mediaStream: 'live' });

    await ended(call.id, { endCallReason: 'customer_ended_call' });

    expect(await rowOf(call.id)).toMatchObject({
      end_call_reason: 'customer_ended_call',
      media_stream: 'ended',
    });
  });

  it('refuses a recording under another key, an unknown provider, and another partner’s call', async () => {
    const call = await saveSandboxCall(dataSource, {}, { mediaStream: 'live' });

    await expect(
      ended(call.id, { recording: { storageKey: recordingKey(randomUUID(), call.id), durationSeconds: 3 } }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(ended(call.id, { platformPaidSpeech: ['nobody'] })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(ended(call.id, { endCallReason: 'Not A Reason' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    await expect(
      calls.send('calls.voice.ended', randomUUID(), {
        callId: call.id,
        endCallReason: null,
        mediaSeconds: 1,
        recording: null,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await rowOf(call.id)).toMatchObject({ media_stream: 'live', recording_key: null });
  });
});
