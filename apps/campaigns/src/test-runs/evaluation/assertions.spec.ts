import {
  evaluateAssertion,
  evaluateAssertions,
  normalizeText,
  ObservedCall,
  schemaViolation,
} from './assertions';

const CALL: ObservedCall = {
  transcript: [
    { role: 'agent', text: 'Hello, this is Maya from Acme.', latency_ms: null },
    { role: 'caller', text: 'I want a table for two.', latency_ms: null },
    { role: 'agent', text: 'Booked: a table for two at 8 pm!', latency_ms: 900 },
    { role: 'caller', text: 'Goodbye.', latency_ms: null },
  ],
  toolCalls: [
    { name: 'book_table', arguments: { party_size: 2, time: '20:00' }, outcome: 'success' },
    { name: 'end_call', arguments: { reason: 'the caller said goodbye' }, outcome: 'success' },
  ],
  endReason: 'agent_ended',
  extraction: { party_size: 2 },
  variables: { name: 'Asha' },
  measuredLatenciesMs: [1200],
};

describe('test assertions', () => {
  it('tool_called: by name, by argument values and by schema, saying what was called', () => {
    expect(evaluateAssertion({ kind: 'tool_called', tool: 'end_call' }, CALL).passed).toBe(true);
    expect(
      evaluateAssertion({ kind: 'tool_called', tool: 'book_table', arguments: { party_size: 2 } }, CALL),
    ).toEqual({
      kind: 'tool_called',
      passed: true,
      detail: 'book_table was called with {"party_size":2,"time":"20:00"}',
    });
    const wrong = evaluateAssertion(
      { kind: 'tool_called', tool: 'book_table', arguments: { party_size: 3 } },
      CALL,
    );
    expect(wrong.passed).toBe(false);
    expect(wrong.detail).toContain('party_size was 2, expected 3');
    const schema = evaluateAssertion(
      {
        kind: 'tool_called',
        tool: 'book_table',
        arguments_schema: { type: 'object', required: ['party_size', 'date'] },
      },
      CALL,
    );
    expect(schema.passed).toBe(false);
    expect(schema.detail).toContain('arguments.date is missing');
    const never = evaluateAssertion({ kind: 'tool_called', tool: 'transfer_call' }, CALL);
    expect(never).toEqual({
      kind: 'tool_called',
      passed: false,
      detail: 'transfer_call was never called (called: book_table, end_call)',
    });
  });

  it('tool_not_called', () => {
    expect(evaluateAssertion({ kind: 'tool_not_called', tool: 'transfer_call' }, CALL).passed).toBe(true);
    expect(evaluateAssertion({ kind: 'tool_not_called', tool: 'end_call' }, CALL)).toEqual({
      kind: 'tool_not_called',
      passed: false,
      detail: 'end_call was called 1 time(s)',
    });
  });

  it('transcript (not) contains: case and punctuation ignored, by role', () => {
    expect(
      evaluateAssertion({ kind: 'transcript_contains', text: 'TABLE FOR TWO at 8 pm' }, CALL).passed,
    ).toBe(true);
    expect(
      evaluateAssertion({ kind: 'transcript_contains', text: 'goodbye', role: 'agent' }, CALL).passed,
    ).toBe(false);
    expect(
      evaluateAssertion({ kind: 'transcript_contains', text: 'goodbye', role: 'caller' }, CALL).passed,
    ).toBe(true);
    const said = evaluateAssertion({ kind: 'transcript_not_contains', text: 'booked', role: 'agent' }, CALL);
    expect(said).toEqual({
      kind: 'transcript_not_contains',
      passed: false,
      detail: '"booked" was said: "Booked: a table for two at 8 pm!"',
    });
    expect(evaluateAssertion({ kind: 'transcript_not_contains', text: 'competitor' }, CALL).passed).toBe(
      true,
    );
  });

  it('end reason, extraction (else variables) and latency (recorded, else measured)', () => {
    expect(evaluateAssertion({ kind: 'end_reason', equals: 'agent_ended' }, CALL).passed).toBe(true);
    expect(evaluateAssertion({ kind: 'end_reason', equals: 'caller_ended' }, CALL).detail).toBe(
      'the session ended with agent_ended, expected caller_ended',
    );
    expect(evaluateAssertion({ kind: 'extraction', key: 'party_size', equals: 2 }, CALL).passed).toBe(true);
    expect(evaluateAssertion({ kind: 'extraction', key: 'name', equals: 'Asha' }, CALL).passed).toBe(true);
    expect(evaluateAssertion({ kind: 'extraction', key: 'date', equals: 'today' }, CALL).detail).toBe(
      'date is absent, expected "today"',
    );
    expect(evaluateAssertion({ kind: 'latency', max_ms: 1000 }, CALL).passed).toBe(true);
    expect(evaluateAssertion({ kind: 'latency', max_ms: 800 }, CALL).detail).toBe(
      '1 of 1 agent replies over 800 ms (slowest 900 ms, recorded)',
    );
    const unrecorded = { ...CALL, transcript: CALL.transcript.map((l) => ({ ...l, latency_ms: null })) };
    expect(evaluateAssertion({ kind: 'latency', max_ms: 1000 }, unrecorded)).toEqual({
      kind: 'latency',
      passed: false,
      detail: '1 of 1 agent replies over 1000 ms (slowest 1200 ms, measured by the test caller)',
    });
    expect(
      evaluateAssertion({ kind: 'latency', max_ms: 1000 }, { ...unrecorded, measuredLatenciesMs: [] }).passed,
    ).toBe(false);
  });

  it('evaluates a list in order', () => {
    expect(
      evaluateAssertions(
        [
          { kind: 'tool_called', tool: 'end_call' },
          { kind: 'transcript_contains', text: 'refund' },
        ],
        CALL,
      ).map((v) => v.passed),
    ).toEqual([true, false]);
  });

  it('reads the schema subset', () => {
    const schema = {
      type: 'object',
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 8 },
        time: { type: 'string', enum: ['20:00', '21:00'] },
        tags: { type: 'array', items: { enum: ['vip', 'window'] } },
      },
    };
    expect(schemaViolation(schema, { size: 2, time: '20:00', tags: ['vip'] })).toBeNull();
    expect(schemaViolation(schema, { size: 9 })).toBe('arguments.size is above 8');
    expect(schemaViolation(schema, { size: 2.5 })).toBe('arguments.size is not of type integer');
    expect(schemaViolation(schema, { time: '8pm' })).toBe('arguments.time is not one of ["20:00","21:00"]');
    expect(schemaViolation(schema, { tags: ['vip', 'door'] })).toBe(
      'arguments.tags[1] is not one of ["vip","window"]',
    );
    expect(normalizeText('  Hello,   WORLD!! ')).toBe('hello world');
  });

  it('never runs a pattern a scenario stored before patterns were refused: the assertion fails at once', () => {
    // With the backtracking regex of old, this 300-character argument took longer than the test timeout.
    const evil = {
      ...CALL,
      toolCalls: [{ name: 'lookup', arguments: { q: `${'a'.repeat(299)}!` }, outcome: 'ok' }],
    };
    const [verdict] = evaluateAssertions(
      [
        {
          kind: 'tool_called',
          tool: 'lookup',
          arguments_schema: { properties: { q: { pattern: '^(a+)+$' } } },
        },
      ],
      evil,
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toBe(
      'arguments_schema.properties.q.pattern is a regular expression, which scenarios no longer accept: edit the scenario',
    );
  });
});
