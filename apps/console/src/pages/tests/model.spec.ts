import {
  assertionBody,
  describeAssertion,
  emptyDraft,
  formWords,
  isRunActive,
  newAssertion,
  parseArgValue,
  passRateText,
  runSummary,
  scenarioBody,
} from './model';

describe('test scenario form', () => {
  it('reads argument values as JSON where they are JSON, else as text', () => {
    expect(parseArgValue('42')).toBe(42);
    expect(parseArgValue('-1.5')).toBe(-1.5);
    expect(parseArgValue('true')).toBe(true);
    expect(parseArgValue('null')).toBeNull();
    expect(parseArgValue('["a", 1]')).toEqual(['a', 1]);
    expect(parseArgValue('{"x": 1}')).toEqual({ x: 1 });
    expect(parseArgValue('"42"')).toBe('42');
    expect(parseArgValue('the caller said goodbye')).toBe('the caller said goodbye');
    expect(parseArgValue('{not json')).toBe('{not json');
    expect(parseArgValue('42 apples')).toBe('42 apples');
  });

  it('sends only the fields of the assertion kind chosen', () => {
    const base = newAssertion();
    expect(
      assertionBody({
        ...base,
        kind: 'tool_called',
        tool: ' check_order ',
        args: [
          { key: 'order_number', value: '42' },
          { key: ' ', value: 'ignored' },
        ],
      }),
    ).toEqual({ kind: 'tool_called', tool: 'check_order', arguments: { order_number: 42 } });
    expect(assertionBody({ ...base, kind: 'tool_called', tool: 'end_call' })).toEqual({
      kind: 'tool_called',
      tool: 'end_call',
    });
    expect(
      assertionBody({ ...base, kind: 'transcript_not_contains', text: 'BudgetCo', role: 'any' }),
    ).toEqual({
      kind: 'transcript_not_contains',
      text: 'BudgetCo',
      role: 'any',
    });
    expect(assertionBody({ ...base, kind: 'end_reason', equals: 'caller_ended' })).toEqual({
      kind: 'end_reason',
      equals: 'caller_ended',
    });
    expect(assertionBody({ ...base, kind: 'latency', maxMs: '2500' })).toEqual({
      kind: 'latency',
      max_ms: 2500,
    });
    // Not a number: sent as typed, so the API names the field.
    expect(assertionBody({ ...base, kind: 'latency', maxMs: 'soon' })).toEqual({
      kind: 'latency',
      max_ms: 'soon',
    });
  });

  it('builds a scripted scenario without persona or judge, and a simulated one with them', () => {
    const scripted = {
      ...emptyDraft(),
      name: ' Greets ',
      lines: [{ text: 'Hello.', pauseMs: '200' }],
      persona: 'left over from simulated',
    };
    expect(scenarioBody(scripted)).toEqual({
      name: 'Greets',
      mode: 'scripted',
      lines: [{ text: 'Hello.', pause_ms: 200 }],
      assertions: [],
    });
    expect(
      scenarioBody({
        ...scripted,
        mode: 'simulated',
        goal: 'Book a table',
        rubric: 'Books the table.',
        threshold: '0.5',
        assertions: [{ ...newAssertion('end_reason'), equals: 'agent_ended_call' }],
      }),
    ).toEqual({
      name: 'Greets',
      mode: 'simulated',
      persona: 'left over from simulated',
      goal: 'Book a table',
      lines: [{ text: 'Hello.', pause_ms: 200 }],
      assertions: [{ kind: 'end_reason', equals: 'agent_ended_call' }],
      judge: { rubric: 'Books the table.', pass_threshold: 0.5 },
    });
  });
});

describe('the API’s messages in the form’s words', () => {
  it('names the rows a person sees instead of the API’s field paths', () => {
    expect(formWords('assertions[0].text must be a non-empty string of at most 500 characters')).toBe(
      'Assertion 1 text must be a non-empty string of at most 500 characters',
    );
    expect(formWords('assertions[2].max_ms must be a whole number')).toBe(
      'Assertion 3 latency budget must be a whole number',
    );
    expect(formWords('lines[1].pause_ms must not be greater than 10000')).toBe(
      'Pause before line 2 must not be greater than 10000',
    );
    expect(formWords('lines[0].text should not be empty')).toBe('Line 1 should not be empty');
    expect(formWords('judge.pass_threshold must not be greater than 1')).toBe(
      'Pass threshold must not be greater than 1',
    );
    expect(formWords('name should not be empty')).toBe('name should not be empty');
  });
});

describe('test runs as the console shows them', () => {
  it('shows a pass rate as a percentage, none before an attempt finished', () => {
    expect(passRateText(null)).toBe('—');
    expect(passRateText(1)).toBe('100%');
    expect(passRateText(0.67)).toBe('67%');
    expect(passRateText(0)).toBe('0%');
  });

  it('refreshes a run until it is completed', () => {
    expect(isRunActive({ status: 'queued' })).toBe(true);
    expect(isRunActive({ status: 'running' })).toBe(true);
    expect(isRunActive({ status: 'completed' })).toBe(false);
  });

  it('counts a run in words', () => {
    expect(runSummary({ total: 2, passed: 2, failed: 0, errored: 0 })).toBe('2 of 2 passed');
    expect(runSummary({ total: 3, passed: 1, failed: 1, errored: 1 })).toBe(
      '1 of 3 passed, 1 failed, 1 could not run',
    );
  });

  it('says what an assertion checks', () => {
    expect(
      describeAssertion({ kind: 'tool_called', tool: 'check_order', arguments: { order_number: 42 } }),
    ).toBe('check_order is called with order_number = 42');
    expect(describeAssertion({ kind: 'transcript_contains', text: 'hello', role: 'agent' })).toBe(
      'the transcript says “hello” (agent)',
    );
    expect(describeAssertion({ kind: 'end_reason', equals: 'caller_ended' })).toBe(
      'the call ends with caller ended',
    );
    expect(describeAssertion({ kind: 'latency', max_ms: 900 })).toBe('every reply within 900 ms');
  });
});
