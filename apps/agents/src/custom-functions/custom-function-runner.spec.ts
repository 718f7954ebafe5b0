import { parseResponsePath, ResponsePathSegment } from '@vap/api';
import { isReadable, parsedArguments, variablesOf, withCredentialHeaders } from './custom-function-runner';

const paths = (map: Record<string, string>): [string, ResponsePathSegment[]][] =>
  Object.entries(map).map(([name, path]) => [name, parseResponsePath(path)!]);

describe('variablesOf', () => {
  const vars = paths({
    status: '$.order.status',
    first: '$.order.items[0]["item name"]',
    all: '$',
    gone: '$.nope',
  });

  it('sets the variables whose path names a value in a JSON answer, any JSON type', () => {
    const answer = { order: { status: 'shipped', items: [{ 'item name': 'Tea' }] } };
    expect(variablesOf(JSON.stringify(answer), vars)).toEqual({
      status: 'shipped',
      first: 'Tea',
      all: answer,
    });
    expect(variablesOf('{"order":{"status":null,"items":[{"item name":3}]}}', vars)).toMatchObject({
      status: null,
      first: 3,
    });
  });

  it('sets nothing for a text answer or when no paths are given', () => {
    expect(variablesOf('shipped', vars)).toEqual({});
    expect(variablesOf('{"order":{"status":"x"}}', [])).toEqual({});
  });
});

describe('what reaches the model', () => {
  it('passes on JSON and text answers only', () => {
    for (const type of ['', 'application/json', 'text/plain', 'text/html', 'application/problem+json'])
      expect(isReadable(type)).toBe(true);
    for (const type of ['image/png', 'application/pdf', 'application/octet-stream'])
      expect(isReadable(type)).toBe(false);
  });

  it('reads arguments given as the model’s JSON text', () => {
    expect(parsedArguments('{"order_id":"A1"}')).toEqual({ order_id: 'A1' });
    expect(parsedArguments({ a: 1 })).toEqual({ a: 1 });
    // Not JSON: left as is, for the shape check to refuse.
    expect(parsedArguments('{broken')).toBe('{broken');
  });
});

describe('withCredentialHeaders', () => {
  it('puts the connection’s headers over the function’s, whatever their letter case', () => {
    expect(
      withCredentialHeaders(
        { Authorization: 'Bearer static', 'X-Team': 'a' },
        { authorization: 'Bearer user' },
      ),
    ).toEqual({ 'X-Team': 'a', authorization: 'Bearer user' });
    expect(withCredentialHeaders({ 'X-Team': 'a' }, {})).toEqual({ 'X-Team': 'a' });
  });
});
