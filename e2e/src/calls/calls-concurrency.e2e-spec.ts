import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('account call concurrency', () => {
  let tap: EventTap;

  beforeAll(async () => {
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('admits exactly the limit under parallel starts and answers the rest 429 LIMIT_REACHED', async () => {
    const partner = await CallsPartner.create({ concurrency_limit: 3 });
    // Long calls (capped at 60 s of media time, 15 s at the suite's media clock) keep their slots while the
    // others arrive.
    const agent = await partner.createAgent({ max_call_duration_secs: 60 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => partner.start({ agent_id: agent.id, to_number: callee('07') })),
    );
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r.body.error).toMatchObject({
        code: 'LIMIT_REACHED',
        message: expect.stringMatching(/concurrency limit/i),
      });
    }
    const ids = admitted.map((r) => r.body.data.call_id as string);
    // The admitted calls' pending events count the account's active calls 1, 2 and 3 (in some order).
    await tap.waitFor(() => ids.every((id) => tap.of(id, 'events.call.status_updated').length > 0));
    const pendings = ids.map(
      (id) =>
        tap.of(id, 'events.call.status_updated')[0].data.account_concurrency as {
          limit: number;
          active: number;
          remaining: number;
        },
    );
    expect(pendings.map((c) => c.active).sort()).toEqual([1, 2, 3]);
    for (const c of pendings) expect(c).toEqual({ limit: 3, active: c.active, remaining: 3 - c.active });

    // A slot frees when a call ends: then one more call is admitted.
    await Promise.all(ids.map((id) => tap.sessionCompleted(id, 60_000)));
    const finals = ids.map(
      (id) => tap.of(id, 'events.call.status_updated').find((e) => e.data.terminal)!.data,
    );
    for (const f of finals) expect(f).toMatchObject({ concurrency_released: true, terminal: true });
    expect(finals.map((f) => (f.account_concurrency as { active: number }).active).sort()).toEqual([0, 1, 2]);
    const next = await partner.start({ agent_id: agent.id, to_number: callee('01') });
    expect(next.status).toBe(200);
    await tap.sessionCompleted(next.body.data.call_id);
  }, 120_000);
});
