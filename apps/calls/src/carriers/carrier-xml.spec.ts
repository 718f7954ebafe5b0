import { xmlEscape, xmlReply } from './carrier-xml';

describe('carrier XML', () => {
  it('escapes text so a greeting cannot inject markup', () => {
    expect(xmlEscape(`Tom & Jerry's <Hangup/> "now"`)).toBe(
      'Tom &amp; Jerry&apos;s &lt;Hangup/&gt; &quot;now&quot;',
    );
  });

  it('answers 200 with an XML document', () => {
    expect(xmlReply('<Response/>')).toEqual({
      status: 200,
      contentType: 'application/xml',
      body: '<?xml version="1.0" encoding="UTF-8"?>\n<Response/>',
    });
  });
});
