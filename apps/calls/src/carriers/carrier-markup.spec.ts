import { CARRIER_A_MARKUP } from './carrier-a/carrier-a.adapter';
import { CARRIER_B_MARKUP } from './carrier-b/carrier-b.adapter';
import { decisionReply, dialReply, greetingReply, streamReply } from './carrier-xml';

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
    expect(decisionReply(dialect, { action: 'REJECT' }, null).body).toBe(doc(body));
  });

  it.each([
    [CARRIER_A_MARKUP, '<Response><Dial><Number>+15551234567</Number></Dial></Response>'],
    [CARRIER_B_MARKUP, '<Response><Dial>+15551234567</Dial></Response>'],
  ])('transfers to the decision number', (dialect, body) => {
    const decision = { action: 'TRANSFER', transfer_to_number: '+15551234567' };
    expect(decisionReply(dialect, decision, null).body).toBe(doc(body));
  });

  const URL = 'wss://media.example.com/media/carrier_b/c1?token=a.b&x=1';

  it('connects carrier_b to the stream with the call id as a parameter', () => {
    expect(streamReply(CARRIER_B_MARKUP, URL, 'c1').body).toBe(
      doc(
        '<Response><Connect><Stream url="wss://media.example.com/media/carrier_b/c1?token=a.b&amp;x=1">' +
          '<Parameter name="callId" value="c1"/></Stream></Connect></Response>',
      ),
    );
  });

  it('streams carrier_a bidirectionally, mu-law 8 kHz, keeping the call alive', () => {
    expect(streamReply(CARRIER_A_MARKUP, URL, 'c1').body).toBe(
      doc(
        '<Response><Stream bidirectional="true" keepCallAlive="true" contentType="audio/x-mulaw;rate=8000" ' +
          'extraHeaders="callId=c1">wss://media.example.com/media/carrier_b/c1?token=a.b&amp;x=1</Stream></Response>',
      ),
    );
  });

  it('answers an AI decision with the stream of the call it opened, else an empty document', () => {
    for (const action of ['ANSWER_WITH_AI', 'SELECT_AGENT']) {
      expect(decisionReply(CARRIER_B_MARKUP, { action, call_id: 'c1' }, URL)).toEqual(
        streamReply(CARRIER_B_MARKUP, URL, 'c1'),
      );
    }
    expect(decisionReply(CARRIER_A_MARKUP, { action: 'SELECT_AGENT' }, null).body).toBe(doc('<Response/>'));
  });

  it('escapes a dialled number', () => {
    expect(dialReply(CARRIER_B_MARKUP, '+1<2>').body).toBe(
      doc('<Response><Dial>+1&lt;2&gt;</Dial></Response>'),
    );
  });
});
