import { CALL_STATUS_UPDATED_FIELDS } from '../../support';
import { CallsPartner, callee, EventTap, HANGS_UP_AFTER_INTRO, IDLE_REPROMPT, UUID } from './call-fixtures';

describe('sandbox call outcomes through the gateway', () => {
  let partner: CallsPartner;
  let agent: { id: string; agent_name: string };
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create({ concurrency_limit: 10 });
    agent = await partner.createAgent();
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  async function run(suffix: string, extra: Record<string, unknown> = {}) {
    const ref = `ref-${suffix}-${Date.now()}`;
    const res = await partner.start({
      agent_id: agent.id,
      to_number: callee(suffix),
      client_reference_id: ref,
      variables: { customer_name: 'Asha' },
      ...extra,
    });
    expect(res.status).toBe(200);
    const callId: string = res.body.data.call_id;
    const completed = await tap.sessionCompleted(callId);
    const call = (await partner.calls(`/${callId}`)).body.data;
    return {
      start: res.body.data,
      callId,
      ref,
      completed,
      call,
      updates: tap.of(callId, 'events.call.status_updated'),
    };
  }

  it('starts a call as pending on the default sandbox number and returns the whole record', async () => {
    // This reads the record the start returns, not the conversation.
    const res = await partner.start({ agent_id: agent.id, to_number: callee(HANGS_UP_AFTER_INTRO) });
    expect(res.status).toBe(200);
    const call = res.body.data;
    expect(call).toMatchObject({
      call_id: expect.stringMatching(UUID),
      session_id: expect.stringMatching(UUID),
      agent_id: agent.id,
      direction: 'outbound',
      from_number: expect.stringMatching(/^\+1555\d{7}$/),
      provider: 'sandbox',
      connection_id: expect.stringMatching(UUID),
      client_reference_id: null,
    });
    expect(['pending', 'ringing']).toContain(call.status);
    expect(call.session).toMatchObject({ processing_complete: false, variables: {}, credits_used: 0 });
    await tap.sessionCompleted(call.call_id);
  });

  it('human answers (other suffix): pending -> ringing -> in_progress -> completed with a conversation', async () => {
    const { callId, ref, completed, call, updates } = await run('42');
    expect(tap.statuses(callId)).toEqual(['pending', 'ringing', 'in_progress', 'completed']);
    for (const u of updates) {
      expect(Object.keys(u.data).sort()).toEqual(CALL_STATUS_UPDATED_FIELDS);
      expect(u.data).toMatchObject({
        call_id: callId,
        client_reference_id: ref,
        agent_id: agent.id,
        agent_name: agent.agent_name,
        provider: 'sandbox',
      });
    }
    const [pending, ringing, live, done] = updates.map((u) => u.data);
    expect(pending).toMatchObject({
      previous_status: null,
      terminal: false,
      concurrency_released: false,
      disposition: null,
    });
    expect(ringing).toMatchObject({
      previous_status: 'pending',
      provider_status: 'ringing',
      terminal: false,
    });
    expect(live).toMatchObject({
      previous_status: 'ringing',
      provider_status: 'in-progress',
      answered_by: 'human',
    });
    expect(done).toMatchObject({
      previous_status: 'in_progress',
      status: 'completed',
      terminal: true,
      concurrency_released: true,
      disposition: 'completed',
      answered_by: 'human',
      hangup_source: 'system',
      hangup_cause: 'NORMAL_CLEARING',
      provider_status: 'completed',
    });
    expect(done.account_concurrency).toEqual({
      limit: 10,
      active: expect.any(Number),
      remaining: expect.any(Number),
    });
    const acc = done.account_concurrency as { limit: number; active: number; remaining: number };
    expect(acc.remaining).toBe(acc.limit - acc.active);

    expect(call).toMatchObject({
      status: 'completed',
      disposition: 'completed',
      end_call_reason: 'agent_ended_call',
      answered_by: 'human',
    });
    expect(call.duration_seconds).toBeGreaterThan(5);
    // A loaded machine can hold the simulated callee's next line past the agent's idle window (8 s of media time
    // is 2 s of wall time on the e2e's 4x media clock); the agent then asks once whether the caller is still
    // there, as it should on a silent line. That line is what was said too, but not this conversation's.
    const conversationOf = (lines: { role: string; content: string }[]) =>
      lines.filter((line) => !(line.role === 'bot' && line.content === IDLE_REPROMPT));
    const transcript = conversationOf(call.session.transcript);
    expect(transcript[0]).toEqual({
      role: 'bot',
      content: 'Hi Asha, this is Maya from Acme Health.',
      timestamp: expect.any(String),
      // The platform's own line: spoken by the call's voice, heard by its transcriber, written by no model.
      providers: { stt: 'offline', llm: null, llm_model: null, tts: 'offline' },
    });
    // Intro, the callee's answer and question, the agent's reply, the callee's goodbye, the farewell: what
    // was said on the line, as the voice service heard and spoke it.
    expect(transcript.map((t) => t.role)).toEqual(['bot', 'user', 'bot', 'user', 'bot']);
    expect(transcript[1].content).toBe('Yes, this is a good time. What plans and pricing do you offer?');
    expect(transcript[2].content.length).toBeGreaterThan(0);
    expect(transcript[3].content).toBe('Great, thanks. Bye.');
    expect(call.session).toMatchObject({
      processing_complete: true,
      status: 'completed',
      variables: { customer_name: 'Asha' },
      duration_seconds: call.duration_seconds,
      hold: { detected: false, events: [], total_secs: 0, ended_on_hold: false, kinds: [] },
    });
    expect(call.session.credits_used).toBeCloseTo(
      Math.ceil((call.bill_duration_seconds * 400) / 60) / 100,
      2,
    );

    expect(conversationOf(completed.data.transcript as { role: string; content: string }[])).toEqual(
      transcript,
    );
    expect(completed.data).toMatchObject({
      session_id: call.session_id,
      call_id: callId,
      agent_id: agent.id,
      agent_name: agent.agent_name,
      duration_seconds: call.duration_seconds,
      credits_used: call.session.credits_used,
      processing_complete: true,
      variables: { customer_name: 'Asha' },
      call: expect.objectContaining({
        from_number: call.from_number,
        to_number: call.to_number,
        provider: 'sandbox',
        direction: 'outbound',
        client_reference_id: ref,
      }),
    });
    expect(completed.data.recording_url).toEqual(expect.stringContaining('/api/v2/uploads/'));
  });

  // The hold feature's journey: the sandbox callee's hold becomes the carrier's hold events (the sandbox carrier
  // app's glue, which no spec of its own covers), and those the call's hold summary, on the call and its webhook.
  it('suffix 06: carrier hold events make the hold summary', async () => {
    const { call, completed } = await run('06');
    expect(call.status).toBe('completed');
    expect(call.session.hold).toEqual({
      detected: true,
      events: [
        {
          kind: 'carrier_hold',
          started_at: expect.any(String),
          ended_at: expect.any(String),
          duration_secs: 20,
          recovered: true,
        },
      ],
      total_secs: 20,
      ended_on_hold: false,
      kinds: ['carrier_hold'],
    });
    expect(completed.data.hold).toEqual(call.session.hold);
  });
});
