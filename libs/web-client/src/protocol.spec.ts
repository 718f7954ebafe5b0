import {
  applyTranscript,
  describeRefusal,
  parseServerMessage,
  TranscriptLine,
  typedLine,
  USER_TEXT_MAX_CHARS,
} from './protocol';

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
    [
      '{"type":"tool","name":"check_order","status":"running","arguments":{"order_number":"42"}}',
      { type: 'tool', name: 'check_order', status: 'running', arguments: { order_number: '42' } },
    ],
    [
      '{"type":"tool","name":"check_order","status":"running","arguments":{},"arguments_truncated":true}',
      { type: 'tool', name: 'check_order', status: 'running', arguments: {}, arguments_truncated: true },
    ],
    [
      '{"type":"tool","name":"check_order","status":"done","outcome":"success","latency_ms":120}',
      { type: 'tool', name: 'check_order', status: 'done', outcome: 'success', latency_ms: 120 },
    ],
    [
      '{"type":"transcript","role":"user","text":"hi","final":true,"typed":true}',
      { type: 'transcript', role: 'user', text: 'hi', final: true, typed: true },
    ],
    [
      '{"type":"error","code":"rate_limited","message":"slow down"}',
      { type: 'error', code: 'rate_limited', message: 'slow down' },
    ],
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
    '{"type":"error","message":"no code"}',
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

describe('typed lines', () => {
  it('keeps a typed line apart from the words being spoken', () => {
    const lines: TranscriptLine[] = [];
    applyTranscript(lines, { role: 'user', text: 'I was', final: false });
    applyTranscript(lines, { role: 'user', text: 'Check order 42', final: true, typed: true });
    applyTranscript(lines, { role: 'user', text: 'I was saying', final: true });
    expect(lines).toEqual([
      { role: 'user', text: 'I was saying', final: true },
      { role: 'user', text: 'Check order 42', final: true },
    ]);
  });

  it('sends a line trimmed, and none that is empty or over the bound', () => {
    expect(typedLine('  hello  ')).toBe('hello');
    expect(typedLine('   ')).toBeNull();
    expect(typedLine('a'.repeat(USER_TEXT_MAX_CHARS))).toHaveLength(USER_TEXT_MAX_CHARS);
    expect(typedLine('a'.repeat(USER_TEXT_MAX_CHARS + 1))).toBeNull();
    // Counted as a person counts: 1000 emoji are 1000 characters.
    expect(typedLine('🙂'.repeat(USER_TEXT_MAX_CHARS))).not.toBeNull();
  });
});

describe('describeRefusal', () => {
  it("says what to do about each refusal, naming the page's origin when it was not allowed", () => {
    expect(describeRefusal(4403, 'origin_not_allowed', 'https://shop.example')).toBe(
      "This page's origin https://shop.example is not in the session's allowed_origins. Add it when your server creates the session.",
    );
    for (const [code, reason, words] of [
      [4401, 'token_expired', /expired/],
      [4401, 'token_used', /used already/],
      [4401, 'token_invalid', /not valid/],
      [4403, 'account_restricted', /may not run sessions/],
      [4404, 'session_not_found', /no such session/],
      [4410, 'session_ended', /has ended/],
      [4429, 'capacity', /full/],
      [4503, 'unavailable', /unavailable/],
      [4999, 'something_new', /refused \(4999 something_new\)/],
    ] as const) {
      expect(describeRefusal(code, reason, 'https://shop.example')).toMatch(words);
    }
  });

  it('is no refusal for ordinary closes', () => {
    expect(describeRefusal(1000, 'session ended', 'https://shop.example')).toBeNull();
    expect(describeRefusal(1006, '', 'https://shop.example')).toBeNull();
  });
});
