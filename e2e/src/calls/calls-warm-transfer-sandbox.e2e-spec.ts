// Warm transfers on sandbox calls: the callee of suffix 08 asks for a human; the agent (offline engine) transfers
// warm to its transfer_number, whose last two digits choose the simulated human: 93 hears the briefing on its own
// leg and accepts (both legs join a conference), 01 does not answer (the agent hands the caller back and says so).
import { waitFor } from '@vap/testing';
import { CallsPartner, callee, EventTap } from './call-fixtures';

type Line = { role: string; content: string };

describe('sandbox warm transfers through the gateway', () => {
  let partner: CallsPartner;
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create({ concurrency_limit: 10 });
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  /** A call to the callee who asks for a human, with an agent transferring warm to `transferNumber`. */
  async function transferCall(transferNumber: string) {
    const agent = await partner.createAgent({
      transfer_enabled: true,
      transfer_number: transferNumber,
      transfer_mode: 'warm_handback',
      transfer_ring_timeout_secs: 10,
    });
    const res = await partner.start({ agent_id: agent.id, to_number: callee('08') });
    expect(res.status).toBe(200);
    const callId: string = res.body.data.call_id;
    await tap.sessionCompleted(callId, 90_000);
    const call = (await partner.calls(`/${callId}`)).body.data;
    const lines = (call.session.transcript as Line[]).map(({ role, content }) => ({ role, content }));
    return { callId, call, lines };
  }

  it('suffix 01: the human does not answer; the agent tells the caller and the call goes on', async () => {
    const human = callee('01');
    const { call, lines } = await transferCall(human);
    expect(call.status).toBe('completed');
    expect(call.disposition).not.toBe('transferred');
    expect(call.transfer).toMatchObject({
      transfer_type: 'warm',
      outcome: 'no_answer',
      bridged_at: null,
      legs: [
        // The caller's leg ends with the call the agent went on with.
        { role: 'caller', status: 'completed' },
        { role: 'human', status: 'no_answer' },
      ],
    });
    const back = lines.findIndex(
      (l) => l.role === 'bot' && l.content === "I'm sorry, my colleague didn't answer. How else can I help?",
    );
    expect(back).toBeGreaterThan(0);
    // The caller answers the agent after the handback: the conversation went on.
    expect(lines.slice(back + 1)).toContainEqual({ role: 'user', content: 'Okay, never mind then. Bye.' });
  });

  it('suffix 93: the human hears the briefing and accepts; both legs are bridged and the call ends transferred', async () => {
    const human = callee('93');
    const { callId, call } = await transferCall(human);
    expect(call).toMatchObject({
      status: 'completed',
      disposition: 'transferred',
      end_call_reason: 'transferred',
    });
    expect(call.transfer).toMatchObject({
      transfer_type: 'warm',
      to_number: human,
      outcome: 'bridged',
      answered_at: expect.any(String),
      bridged_at: expect.any(String),
      legs: [
        // Both legs were bridged, and ended with the call.
        { role: 'caller', status: 'completed', carrier_call_id: expect.stringMatching(/^CA/) },
        {
          role: 'human',
          to_number: human,
          status: 'completed',
          carrier_call_id: expect.stringMatching(/^CA/),
        },
      ],
    });
    expect(call.transfer.legs[0].carrier_call_id).not.toBe(call.transfer.legs[1].carrier_call_id);
    await waitFor(() => tap.of(callId, 'events.call.transferred').length > 0 || undefined, {
      description: 'call.transferred',
    });
    expect(tap.of(callId, 'events.call.transferred').map((e) => e.data)).toEqual([
      expect.objectContaining({ transfer_type: 'warm', outcome: 'bridged', provider: 'sandbox' }),
    ]);
  });
});
