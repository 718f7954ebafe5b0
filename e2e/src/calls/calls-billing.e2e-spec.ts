import { api } from '../../support';
import { CallsPartner, callee, EventTap } from './call-fixtures';

async function balanceOf(partner: CallsPartner): Promise<number> {
  const res = await api('/billing/balance', { key: partner.generalKey });
  return res.body.data.balance_inr;
}

describe('charging completed sessions', () => {
  let tap: EventTap;

  beforeAll(async () => {
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('debits credits_used from the balance exactly once, and nothing for an unanswered call', async () => {
    const partner = await CallsPartner.create({ balance_inr: 100 });
    const agent = await partner.createAgent();
    const answered = await partner.start({ agent_id: agent.id, to_number: callee('42') });
    const missed = await partner.start({ agent_id: agent.id, to_number: callee('01') });
    const done = await tap.sessionCompleted(answered.body.data.call_id);
    await tap.sessionCompleted(missed.body.data.call_id);
    const charge = done.data.credits_used as number;
    expect(charge).toBeGreaterThan(0);
    expect(done.data.credits_used_paise).toBe(Math.round(charge * 100));

    const expected = Math.round((100 - charge) * 100) / 100;
    const deadline = Date.now() + 15_000;
    while ((await balanceOf(partner)) !== expected && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(await balanceOf(partner)).toBe(expected);
    // Stays debited once: nothing else arrives later.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await balanceOf(partner)).toBe(expected);
    const call = (await partner.calls(`/${answered.body.data.call_id}`)).body.data;
    expect(call.session.credits_used).toBe(charge);
  });
});
