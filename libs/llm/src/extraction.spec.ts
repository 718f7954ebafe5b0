import { EffectiveExtractionKey } from '@vap/messages';
import { coerceValue, parseExtractionAnswer } from './extraction';
import { LlmError } from './llm-error';

const key = (type: EffectiveExtractionKey['type'], options?: string[]): EffectiveExtractionKey => ({
  name: 'k',
  type,
  description: 'd',
  options,
  source: 'inline',
  setId: null,
});

describe('extraction answers', () => {
  it('coerces values to the key types, null when they cannot be', () => {
    expect(coerceValue(key('boolean'), 'Yes')).toBe(true);
    expect(coerceValue(key('boolean'), 'maybe')).toBeNull();
    expect(coerceValue(key('number'), '$1,200')).toBe(1200);
    expect(coerceValue(key('date'), '2027-03-03T10:00:00Z')).toBe('2027-03-03');
    expect(coerceValue(key('enum', ['Basic', 'Premium']), ' premium ')).toBe('Premium');
    expect(coerceValue(key('string'), { a: 1 })).toBe('{"a":1}');
    expect(coerceValue(key('string'), '')).toBeNull();
  });

  it('finds the JSON object in a fenced answer and keeps only the schema keys', () => {
    expect(parseExtractionAnswer([key('number')], '```json\n{"k": "7", "other": true}\n```')).toEqual({
      k: 7,
    });
  });

  it('refuses an answer without a JSON object', () => {
    expect(() => parseExtractionAnswer([key('number')], 'sorry')).toThrow(LlmError);
    expect(() => parseExtractionAnswer([key('number')], '{"k": }')).toThrow(/JSON object/);
    expect(() => parseExtractionAnswer([key('number')], '[1]')).toThrow(/JSON object/);
  });
});
