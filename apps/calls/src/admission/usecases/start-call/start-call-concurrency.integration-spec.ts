// An account's concurrency limit as the start command enforces it under parallel starts, in the running calls
// module: the agents service is a fake peer, the carrier a fake of the sandbox line's REST API whose status
// callbacks the spec delivers as the gateway forwards them. The limit admits exactly that many calls, each
// admitted call's events count the account's active calls, and a call's end frees its slot.
import { randomUUID } from 'node:crypto';
import { AccountConcurrency, CallStatusUpdatedData, DomainEvents, ErrorCode } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';
import { callWebhook } from '../../../testing/sandbox-webhooks';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';

describe('start a call: account concurrency', () => {
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    answerAgents(calls.peers);
  });

  /** The status events the service published for the call, oldest first. */
  const statusEvents = async (callId: string) =>
    (await calls.events(DomainEvents.callStatusUpdated))
      .map((e) => e.event.data as CallStatusUpdatedData)
      .filter((d) => d.call_id === callId);

  it('admits exactly the limit under parallel starts, refuses the rest LIMIT_REACHED, and frees a slot when a call ends', async () => {
    const partner = approvedPartner({ concurrencyLimit: 3 });
    const start = () =>
      calls.send('calls.call.start', partner, { agent_id: randomUUID(), to_number: '+919812345607' });
    const results = await Promise.allSettled(Array.from({ length: 10 }, start));
    const admitted = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.call.call_id] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(admitted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const error of refused) {
      expect(error).toMatchObject({
        code: ErrorCode.LIMIT_REACHED,
        message: expect.stringMatching(/concurrency limit/i),
      });
    }
    // Only the admitted calls reach the carrier.
    const placed = carrier.requests.filter(
      (r) => r.path === '/Calls.json' && r.form.get('To') === '+919812345607',
    );
    expect(placed).toHaveLength(3);

    // The admitted calls' first events count the account's active calls 1, 2 and 3 (in some order).
    for (const id of admitted) {
      await calls.waitForEvent<CallStatusUpdatedData>(
        DomainEvents.callStatusUpdated,
        (e) => e.data.call_id === id,
      );
    }
    const firsts = await Promise.all(
      admitted.map(async (id) => (await statusEvents(id))[0].account_concurrency as AccountConcurrency),
    );
    expect(firsts.map((c) => c.active).sort()).toEqual([1, 2, 3]);
    for (const c of firsts) expect(c).toEqual({ limit: 3, active: c.active, remaining: 3 - c.active });

    // The carrier reports each call completed: each end releases its slot, counting down to 0 active.
    for (const request of placed) {
      // A final callback is checked with the carrier's record of the call before it ends the call.
      carrier.known.set(request.sid!, {
        to: request.form.get('To')!,
        from: request.form.get('From')!,
        status: 'completed',
        duration: '5',
        date_created: new Date().toUTCString(),
      });
      const reply = await calls.send(
        'calls.callback.ingest',
        null,
        callWebhook(request.form.get('StatusCallback')!, {
          CallSid: request.sid!,
          CallStatus: 'completed',
          CallDuration: '5',
        }),
      );
      expect(reply.status).toBe(200);
    }
    const finals = await Promise.all(
      admitted.map(
        async (id) =>
          (
            await calls.waitForEvent<CallStatusUpdatedData>(
              DomainEvents.callStatusUpdated,
              (e) => e.data.call_id === id && e.data.terminal,
            )
          ).data,
      ),
    );
    for (const f of finals) expect(f).toMatchObject({ concurrency_released: true, terminal: true });
    expect(finals.map((f) => f.account_concurrency!.active).sort()).toEqual([0, 1, 2]);
    await expect(start()).resolves.toMatchObject({ replayed: false });
  });
});
