// A call's hold summary in the running calls module: the carrier (a fake of the sandbox line's carrier_b REST
// API) reports a hold on and off through its status callbacks (CallbackSource hold-events), delivered as the
// gateway forwards them; once the call has ended, the post-call job reports the summary on the call and in
// session.completed.
import { randomUUID } from 'node:crypto';
import { DomainEvents, SessionCompletedData } from '@vap/messages';
import { FakeSandboxCarrier } from '../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../testing/sandbox-calls';
import { callWebhook } from '../testing/sandbox-webhooks';
import { answerAgents, approvedPartner } from '../testing/spec-partners';

describe('hold summary', () => {
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    answerAgents(calls.peers);
  });

  it('summarises the carrier hold events of a call on the call and in session.completed', async () => {
    const partner = approvedPartner();
    const to = '+919812345606';
    const { call: started } = await calls.send('calls.call.start', partner, {
      agent_id: randomUUID(),
      to_number: to,
    });
    const placed = carrier.requests.find((r) => r.path === '/Calls.json' && r.form.get('To') === to)!;
    const t0 = Date.now() - 60_000;
    const at = (secs: number) => new Date(t0 + secs * 1000).toUTCString();
    let sequence = 0;
    const callback = async (form: Record<string, string>) =>
      expect(
        (
          await calls.send(
            'calls.callback.ingest',
            null,
            callWebhook(placed.form.get('StatusCallback')!, {
              CallSid: placed.sid!,
              SequenceNumber: String(++sequence),
              ...form,
            }),
          )
        ).status,
      ).toBe(200);

    await callback({ CallStatus: 'ringing', Timestamp: at(0) });
    await callback({ CallStatus: 'in-progress', AnsweredBy: 'human', Timestamp: at(2) });
    const hold = { CallStatus: 'in-progress', CallbackSource: 'hold-events', HoldKind: 'carrier_hold' };
    await callback({ ...hold, HoldEvent: 'start', Timestamp: at(10) });
    await callback({ ...hold, HoldEvent: 'end', HoldDuration: '20', Timestamp: at(30) });
    carrier.known.set(placed.sid!, {
      to,
      from: placed.form.get('From')!,
      status: 'completed',
      duration: '40',
      date_created: at(0),
    });
    await callback({ CallStatus: 'completed', CallDuration: '40', Timestamp: at(42) });

    const completed = await calls.waitForEvent<SessionCompletedData>(
      DomainEvents.sessionCompleted,
      (e) => e.data.call_id === started.call_id,
    );
    const call = await calls.send('calls.call.get', partner, { id: started.call_id });
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
