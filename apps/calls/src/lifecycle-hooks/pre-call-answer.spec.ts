import { mergeHookVariables, readPreCallAnswer } from './pre-call-answer';

describe('readPreCallAnswer', () => {
  it('reads continue with variables, and block with its reason', () => {
    expect(readPreCallAnswer('{"variables":{"first_name":"Asha"}}')).toEqual({
      action: 'continue',
      variables: { first_name: 'Asha' },
      reason: null,
    });
    expect(readPreCallAnswer('{"action":"block","reason":" on the do-not-disturb list "}')).toEqual({
      action: 'block',
      variables: {},
      reason: 'on the do-not-disturb list',
    });
  });

  it('takes an empty body as continue', () => {
    expect(readPreCallAnswer('  ')).toEqual({ action: 'continue', variables: {}, reason: null });
  });

  it.each([
    ['not json', 'the answer is not JSON'],
    ['[1]', 'the answer is not a JSON object'],
    ['{"actoin":"block"}', 'unknown field actoin'],
    ['{"action":"hangup"}', 'action must be continue or block'],
    ['{"variables":[1]}', 'variables must be an object'],
    ['{"reason":5}', 'reason must be a string'],
    [JSON.stringify({ action: 'block', reason: 'x'.repeat(501) }), 'reason must be at most 500 characters'],
  ])('refuses %s', (body, invalid) => {
    expect(readPreCallAnswer(body)).toEqual({ invalid });
  });
});

describe('mergeHookVariables', () => {
  it("lets the hook's values win and keeps the names it leaves out", () => {
    expect(mergeHookVariables({ first_name: 'A', order: 7 }, { first_name: 'Asha', tier: 'gold' })).toEqual({
      first_name: 'Asha',
      order: 7,
      tier: 'gold',
    });
  });
});
