// Touch tones on sandbox calls (the simulator speaks carrier_b's protocol): the callee of suffix 92 keys in an
// account number with dtmf frames, the callee of suffix 91 is a phone menu that hears the agent's keys in the
// audio it plays (the sandbox has no REST request for keys, so the agent's send_dtmf goes in-band).
import { CallsPartner, callee, EventTap } from './call-fixtures';

type Line = { role: string; content: string };

describe('sandbox DTMF through the gateway', () => {
  let partner: CallsPartner;
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create({ concurrency_limit: 10 });
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  async function transcriptOf(agentId: string, suffix: string): Promise<Line[]> {
    const res = await partner.start({
      agent_id: agentId,
      to_number: callee(suffix),
      variables: { customer_name: 'Asha' },
    });
    expect(res.status).toBe(200);
    const callId: string = res.body.data.call_id;
    await tap.sessionCompleted(callId);
    const call = (await partner.calls(`/${callId}`)).body.data;
    expect(call.status).toBe('completed');
    return (call.session.transcript as Line[]).map(({ role, content }) => ({ role, content }));
  }

  it('suffix 92: the keypad entry reaches the agent as caller input, when the agent takes keys', async () => {
    const agent = await partner.createAgent({ dtmf: { enabled: true, max_digits: 8, terminator: '#' } });
    const lines = await transcriptOf(agent.id, '92');
    const entry = lines.findIndex((l) => l.role === 'user' && l.content === '[keypad] 4711 #');
    expect(entry).toBeGreaterThan(0);
    expect(lines[entry + 1]).toEqual({ role: 'bot', content: 'Thank you. I have the number 4 7 1 1.' });

    const deaf = await partner.createAgent();
    const ignored = await transcriptOf(deaf.id, '92');
    expect(ignored.some((l) => l.content.startsWith('[keypad]'))).toBe(false);
  });

  it("suffix 91: the agent presses the menu option its prompt names, and the menu hears it in the call's audio", async () => {
    const agent = await partner.createAgent({
      prompt: 'You are Maya from Acme Health, calling to reach the sales team about a bulk order.',
      send_dtmf_enabled: true,
    });
    const lines = await transcriptOf(agent.id, '91');
    const menu = lines.findIndex(
      (l) => l.role === 'user' && l.content.startsWith('Welcome to Acme. Press 1 for billing.'),
    );
    expect(menu).toBeGreaterThan(0);
    expect(lines[menu + 1]).toEqual({ role: 'bot', content: '[keypad] 2' });
    expect(lines).toContainEqual({ role: 'user', content: 'You chose sales. Goodbye.' });

    // Without the tool the menu hears no key.
    const plain = await partner.createAgent({
      prompt: 'You are Maya from Acme Health, calling to reach the sales team about a bulk order.',
    });
    const unanswered = await transcriptOf(plain.id, '91');
    expect(unanswered).toContainEqual({ role: 'user', content: 'No option was chosen. Goodbye.' });
  });
});
