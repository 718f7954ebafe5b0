import { api } from '../../support';
import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('post-call extraction', () => {
  let partner: CallsPartner;
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create();
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('fills the agent’s extraction keys from the conversation (offline engine)', async () => {
    const agent = await partner.createAgent();
    const put = await api(`/agent/${agent.id}`, {
      method: 'PUT',
      key: partner.generalKey,
      body: {
        extraction_config: {
          keys: [
            { name: 'good_time', type: 'boolean', description: 'whether this is a good time to talk' },
            {
              name: 'interested_in_pricing',
              type: 'boolean',
              description: 'the callee asked about plans and pricing',
            },
            { name: 'callback_date', type: 'date', description: 'date for a callback' },
          ],
        },
      },
    });
    expect(put.status).toBe(200);
    const res = await partner.start({ agent_id: agent.id, to_number: callee('42') });
    const completed = await tap.sessionCompleted(res.body.data.call_id);
    const expected = {
      status: 'success',
      model: 'offline-rules-v1',
      extractedAt: expect.any(String),
      latencyMs: expect.any(Number),
      attempts: 1,
      values: { good_time: true, interested_in_pricing: true, callback_date: null },
      error: null,
    };
    expect(completed.data.extraction).toEqual(expected);
    const call = (await partner.calls(`/${res.body.data.call_id}`)).body.data;
    expect(call.session.extraction).toEqual(expected);
  });

  it('skips extraction when the agent disables it, and has none for an unanswered call', async () => {
    const agent = await partner.createAgent({ extraction_enabled: false });
    const res = await partner.start({ agent_id: agent.id, to_number: callee('42') });
    const completed = await tap.sessionCompleted(res.body.data.call_id);
    expect(completed.data.extraction).toMatchObject({ status: 'skipped', attempts: 0, values: {} });
    const missed = await partner.start({ agent_id: agent.id, to_number: callee('02') });
    expect((await tap.sessionCompleted(missed.body.data.call_id)).data.extraction).toBeNull();
  });
});
