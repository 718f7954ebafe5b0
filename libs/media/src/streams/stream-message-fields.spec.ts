import {
  JsonObject,
  base64Field,
  numberField,
  parseStreamFrame,
  stringRecordField,
} from './stream-message-fields';

describe('parseStreamFrame', () => {
  const readers = {
    hello: (frame: JsonObject) => ({ event: 'hello' as const, count: numberField(frame, 'count') }),
  };

  it('hands a known event to its reader', () => {
    expect(parseStreamFrame('{"event":"hello","count":"3"}', readers)).toEqual({
      ok: true,
      message: { event: 'hello', count: 3 },
    });
  });

  it.each([
    ['not json', { reason: 'invalid_json' }],
    ['', { reason: 'invalid_json' }],
    ['[1,2]', { reason: 'not_an_object' }],
    ['null', { reason: 'not_an_object' }],
    ['"hello"', { reason: 'not_an_object' }],
    ['{"count":1}', { reason: 'invalid_field', field: 'event' }],
    ['{"event":7}', { reason: 'invalid_field', field: 'event' }],
    ['{"event":"bye"}', { reason: 'unknown_event', event: 'bye' }],
    ['{"event":"toString"}', { reason: 'unknown_event', event: 'toString' }],
    ['{"event":"hello","count":"x"}', { reason: 'invalid_field', event: 'hello', field: 'count' }],
  ])('turns %j into a typed error', (text, error) => {
    expect(parseStreamFrame(text, readers)).toEqual({ ok: false, error });
  });

  it('lets a reader bug propagate instead of hiding it as a bad frame', () => {
    const broken = {
      hello: (): never => {
        throw new TypeError('bug');
      },
    };
    expect(() => parseStreamFrame('{"event":"hello"}', broken)).toThrow(TypeError);
  });
});

describe('field readers', () => {
  it('reads numbers given as numbers or decimal strings only', () => {
    expect(numberField({ n: 5 }, 'n')).toBe(5);
    expect(numberField({ n: '1705312200000' }, 'n')).toBe(1705312200000);
    expect(() => numberField({ n: '5ms' }, 'n')).toThrow('invalid field n');
    expect(() => numberField({ n: Infinity }, 'n')).toThrow('invalid field n');
    expect(() => numberField({}, 'n')).toThrow('invalid field n');
  });

  it('accepts only canonical base64', () => {
    expect(base64Field({ p: '//8A' }, 'p')).toBe('//8A');
    expect(base64Field({ p: 'fw==' }, 'p')).toBe('fw==');
    expect(base64Field({ p: '' }, 'p')).toBe('');
    expect(() => base64Field({ p: 'ab$d' }, 'p')).toThrow('invalid field p');
    expect(() => base64Field({ p: 'abc' }, 'p')).toThrow('invalid field p');
    expect(() => base64Field({ p: 'a-_b' }, 'p')).toThrow('invalid field p');
  });

  it('reads string records and keeps a __proto__ key as a plain entry', () => {
    const record = stringRecordField(JSON.parse('{"r":{"__proto__":"x","a":"1"}}'), 'r');
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record!)).toEqual(['__proto__', 'a']);
    expect(stringRecordField({}, 'r')).toBeUndefined();
    expect(() => stringRecordField({ r: { a: 1 } }, 'r')).toThrow('invalid field r.a');
    expect(() => stringRecordField({ r: ['a'] }, 'r')).toThrow('invalid field r');
  });
});
