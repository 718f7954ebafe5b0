import { CARRIER_A_MARKUP } from './carrier-a/carrier-a.adapter';
import { CARRIER_B_MARKUP } from './carrier-b/carrier-b.adapter';
import { decisionReply, greetingReply } from './carrier-xml';

const doc = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

describe('carrier answer markup', () => {
  it.each([
    [CARRIER_A_MARKUP, '<Response><Speak>Hi &amp; welcome</Speak></Response>'],
    [CARRIER_B_MARKUP, '<Response><Say>Hi &amp; welcome</Say></Response>'],
  ])('greets with the escaped intro in the carrier dialect', (dialect, body) => {
    expect(greetingReply(dialect, 'Hi & welcome')).toEqual({
      status: 200,
      contentType: 'application/xml',
      body: doc(body),
    });
  });

  it.each([null, undefined, ''])('answers an empty document without an intro (%p)', (intro) => {
    expect(greetingReply(CARRIER_A_MARKUP, intro).body).toBe(doc('<Response/>'));
    expect(greetingReply(CARRIER_B_MARKUP, intro).body).toBe(doc('<Response/>'));
  });

  it.each([
    [CARRIER_A_MARKUP, '<Response><Hangup reason="rejected"/></Response>'],
    [CARRIER_B_MARKUP, '<Response><Reject reason="rejected"/></Response>'],
  ])('rejects in the carrier dialect', (dialect, body) => {
    expect(decisionReply(dialect, { action: 'REJECT' }, 'ignored').body).toBe(doc(body));
  });

  it.each([
    [CARRIER_A_MARKUP, '<Response><Dial><Number>+15551234567</Number></Dial></Response>'],
    [CARRIER_B_MARKUP, '<Response><Dial>+15551234567</Dial></Response>'],
  ])('transfers to the decision number', (dialect, body) => {
    const decision = { action: 'TRANSFER', transfer_to_number: '+15551234567' };
    expect(decisionReply(dialect, decision, 'ignored').body).toBe(doc(body));
  });

  it('answers an AI decision with the greeting, or an empty document', () => {
    expect(decisionReply(CARRIER_B_MARKUP, { action: 'ANSWER_WITH_AI' }, 'Hello <you>').body).toBe(
      doc('<Response><Say>Hello &lt;you&gt;</Say></Response>'),
    );
    expect(decisionReply(CARRIER_A_MARKUP, { action: 'SELECT_AGENT' }, null).body).toBe(doc('<Response/>'));
  });
});
