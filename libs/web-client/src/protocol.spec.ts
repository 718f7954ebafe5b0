import { applyTranscript, parseServerMessage, TranscriptLine } from './protocol';

describe('parseServerMessage', () => {
  it.each([
    ['{"type":"session.started","session_id":"s1"}', { type: 'session.started', session_id: 's1' }],
    ['{"type":"mark","name":"m1"}', { type: 'mark', name: 'm1' }],
    ['{"type":"clear"}', { type: 'clear' }],
    [
      '{"type":"transcript","role":"user","text":"hi","final":false}',
      { type: 'transcript', role: 'user', text: 'hi', final: false },
    ],
    [
      '{"type":"transcript","role":"agent","text":"hello"}',
      { type: 'transcript', role: 'agent', text: 'hello', final: true },
    ],
    ['{"type":"agent.speaking","speaking":true}', { type: 'agent.speaking', speaking: true }],
    ['{"type":"tool","name":"lookup","status":"done"}', { type: 'tool', name: 'lookup', status: 'done' }],
    [
      '{"type":"speech","stt":"deepgram","tts":"elevenlabs"}',
      { type: 'speech', stt: 'deepgram', tts: 'elevenlabs' },
    ],
    [
      '{"type":"speech","stt":"offline","tts":"offline","warning":"not a person"}',
      { type: 'speech', stt: 'offline', tts: 'offline', warning: 'not a person' },
    ],
    ['{"type":"session.ended","reason":"agent_hangup"}', { type: 'session.ended', reason: 'agent_hangup' }],
    ['{"type":"session.ended"}', { type: 'session.ended', reason: 'ended' }],
  ])('reads %s', (text, message) => {
    expect(parseServerMessage(text)).toEqual(message);
  });

  it.each([
    'not json',
    '[]',
    'null',
    '{"type":"mark"}',
    '{"type":"transcript","role":"system","text":"x"}',
    '{"type":"agent.speaking","speaking":"yes"}',
    '{"type":"tool","name":"x","status":"failed"}',
    '{"type":"future.thing"}',
  ])('ignores %s', (text) => {
    expect(parseServerMessage(text)).toBeNull();
  });
});

describe('applyTranscript', () => {
  it('updates the interim line of a role until it is final, then starts a new line', () => {
    const lines: TranscriptLine[] = [];
    applyTranscript(lines, { role: 'agent', text: 'Hello.', final: true });
    applyTranscript(lines, { role: 'user', text: 'I', final: false });
    applyTranscript(lines, { role: 'user', text: 'I need', final: false });
    applyTranscript(lines, { role: 'agent', text: 'Sure.', final: true });
    applyTranscript(lines, { role: 'user', text: 'I need help', final: true });
    applyTranscript(lines, { role: 'user', text: 'Thanks', final: true });
    expect(lines).toEqual([
      { role: 'agent', text: 'Hello.', final: true },
      { role: 'user', text: 'I need help', final: true },
      { role: 'agent', text: 'Sure.', final: true },
      { role: 'user', text: 'Thanks', final: true },
    ]);
  });
});
