// How a call ends by what its carrier reports, in the running calls module: the sandbox carrier's outcomes (no
// answer, busy, failed, a machine answering, a callee hanging up without a word) as its status callbacks report
// them, with the fields and in the order the sandbox carrier app sends them, delivered as the gateway forwards them.
// Each becomes the call's statuses (call.status_updated), its disposition, answered_by, hang-up details and end
// reason, its charge and session.completed.
import { randomUUID } from 'node:crypto';
import { DomainEvents, SessionCompletedData } from '@vap/messages';
import { FakeSandboxCarrier } from '../testing/fake-sandbox-carrier';
import { placeSandboxCall, statusUpdatesOf } from '../testing/placed-sandbox-calls';
import { useCallsOnSandbox } from '../testing/sandbox-calls';
import { answerAgents, approvedPartner } from '../testing/spec-partners';

describe('call outcomes reported by the carrier', () => {
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    answerAgents(calls.peers);
  });

  async function place(to: string) {
    const partner = approvedPartner();
    const call = await placeSandboxCall(calls, carrier, partner, {
      agent_id: randomUUID(),
      to_number: to,
      client_reference_id: `ref-${to}`,
    });
    return { partner, ...call };
  }

  const completedOf = (callId: string) =>
    calls.waitForEvent<SessionCompletedData>(DomainEvents.sessionCompleted, (e) => e.data.call_id === callId);

  // The sandbox carrier's callbacks of a call nobody answers: initiated, then ringing unless it ends at once.
  it.each([
    {
      outcome: 'no_answer',
      to: '+919812301001',
      ringing: true,
      end: ['no-answer', { HangupCause: 'NO_ANSWER', HangupSource: 'carrier' }],
      sequence: ['pending', 'ringing', 'no_answer'],
      hangupSource: 'carrier',
    },
    {
      outcome: 'busy',
      to: '+919812301002',
      ringing: false,
      end: ['busy', { HangupCause: 'USER_BUSY', HangupSource: 'callee' }],
      sequence: ['pending', 'busy'],
      hangupSource: 'callee',
    },
    {
      outcome: 'failed',
      to: '+919812301003',
      ringing: false,
      end: [
        'failed',
        {
          HangupCause: 'NETWORK_OUT_OF_ORDER',
          HangupSource: 'carrier',
          ErrorMessage: 'The carrier could not connect the call',
        },
      ],
      sequence: ['pending', 'failed'],
      hangupSource: 'carrier',
    },
  ] as const)('$outcome: a terminal failure, unanswered and free', async (c) => {
    const { partner, callId, progress, end } = await place(c.to);
    await progress({ CallStatus: 'initiated' });
    if (c.ringing) await progress({ CallStatus: 'ringing' });
    await end(c.end[0], c.end[1]);

    const updates = await statusUpdatesOf(calls, callId, c.outcome);
    expect(updates.map((u) => u.status)).toEqual(c.sequence);
    expect(updates[updates.length - 1]).toMatchObject({
      status: c.outcome,
      terminal: true,
      concurrency_released: true,
      disposition: c.outcome,
      answered_by: 'not_answered',
      hangup_cause: c.end[1].HangupCause,
      hangup_source: c.hangupSource,
      client_reference_id: `ref-${c.to}`,
    });
    const completed = await completedOf(callId);
    const call = await calls.send('calls.call.get', partner, { id: callId });
    expect(call).toMatchObject({
      status: c.outcome,
      disposition: c.outcome,
      duration_seconds: 0,
      bill_duration_seconds: 0,
      answered_by: 'not_answered',
      hangup_source: c.hangupSource,
    });
    expect(call.session.transcript).toBeNull();
    expect(call.session).toMatchObject({ credits_used: 0, processing_complete: true, status: 'failed' });
    expect(call.session.recording_url).toBeUndefined();
    expect(completed.data).toMatchObject({
      duration_seconds: 0,
      transcript: null,
      credits_used: 0,
      credits_used_paise: 0,
      extraction: null,
      recording_url: null,
    });
    if (c.outcome === 'failed') expect(call.error_message).toMatch(/could not connect/);
    else expect(call.error_message).toBeNull();
  });

  it('a machine answers: the agent leaves it (voicemail_detected), the call completes as voicemail', async () => {
    const { partner, callId, placed, progress, end } = await place('+919812304004');
    await progress({ CallStatus: 'initiated' });
    await progress({ CallStatus: 'ringing' });
    // The carrier's machine detection has its answer by the time the call is answered.
    await progress({ CallStatus: 'in-progress', AnsweredBy: 'machine_start' });
    // The voice service, told a machine answered, leaves its message and hangs up; the carrier then ends the call.
    await calls.send('calls.voice.hangup', null, { callId, reason: 'voicemail_detected' });
    expect(carrier.onCall(placed.sid!).map((r) => r.form.get('Status'))).toEqual(['completed']);
    await end('completed', { CallDuration: '9', HangupCause: 'NORMAL_CLEARING', HangupSource: 'system' });

    const updates = await statusUpdatesOf(calls, callId, 'completed');
    expect(updates.map((u) => u.status)).toEqual(['pending', 'ringing', 'in_progress', 'completed']);
    expect(updates[2].answered_by).toBe('machine');
    expect(updates[3]).toMatchObject({ disposition: 'voicemail', answered_by: 'machine', terminal: true });
    await completedOf(callId);
    expect(await calls.send('calls.call.get', partner, { id: callId })).toMatchObject({
      status: 'completed',
      disposition: 'voicemail',
      answered_by: 'machine',
      end_call_reason: 'voicemail_detected',
      hangup_source: 'system',
      duration_seconds: 9,
    });
  });

  it('the callee hangs up without speaking: user_hangup_no_speech, callee_hung_up', async () => {
    const { partner, callId, progress, end } = await place('+919812305005');
    await progress({ CallStatus: 'initiated' });
    await progress({ CallStatus: 'ringing' });
    await progress({ CallStatus: 'in-progress', AnsweredBy: 'human' });
    // The agent's intro is all that was said.
    await calls.send('calls.voice.transcript', null, {
      callId,
      role: 'bot',
      content: 'Hello, this is Maya.',
      atMs: 200,
      callSeconds: 0,
    });
    // The sandbox carrier names who hung up and why on the final callback.
    await end('completed', {
      CallDuration: '4',
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'callee',
      EndCallReason: 'callee_hung_up',
      Disposition: 'user_hangup_no_speech',
    });

    const updates = await statusUpdatesOf(calls, callId, 'completed');
    expect(updates[updates.length - 1]).toMatchObject({
      disposition: 'user_hangup_no_speech',
      hangup_source: 'callee',
      answered_by: 'human',
    });
    await completedOf(callId);
    const call = await calls.send('calls.call.get', partner, { id: callId });
    expect(call).toMatchObject({
      status: 'completed',
      disposition: 'user_hangup_no_speech',
      hangup_source: 'callee',
      end_call_reason: 'callee_hung_up',
    });
    expect(call.session.transcript).toEqual([
      { role: 'bot', content: 'Hello, this is Maya.', timestamp: expect.any(String) },
    ]);
  });
});
