import { link, pdfWithPages, settledLink, uploadDocument } from '../documents/kb-fixtures';
import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('the sandbox conversation uses the agent’s knowledge base', () => {
  let tap: EventTap;

  beforeAll(async () => {
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('answers the callee’s pricing question from a linked document', async () => {
    const partner = await CallsPartner.create();
    const agent = await partner.createAgent({ kb_threshold: null });
    const pdf = await pdfWithPages([
      [
        'Acme Health plans and pricing.',
        'The Basic plan costs 499 rupees per month.',
        'The Family plan costs 999 rupees per month.',
      ],
    ]);
    const doc = await uploadDocument(partner.generalKey, pdf, { name: 'Pricing' });
    await link(partner.generalKey, agent.id, doc.id);
    expect((await settledLink(partner.generalKey, agent.id, doc.id)).index_status).toBe('indexed');

    const res = await partner.start({ agent_id: agent.id, to_number: callee('42') });
    const completed = await tap.sessionCompleted(res.body.data.call_id);
    const transcript = completed.data.transcript as { role: string; content: string }[];
    const question = transcript.findIndex((t) => t.role === 'user' && /plans and pricing/.test(t.content));
    expect(question).toBeGreaterThan(0);
    expect(transcript[question + 1].role).toBe('bot');
    expect(transcript[question + 1].content).toMatch(/Basic plan costs 499 rupees/);
  });
});
