import { plainToInstance, Transform } from 'class-transformer';
import { validateSync } from 'class-validator';
import { E164_EXAMPLE, E164_PATTERN, queryE164 } from './e164';
import { OptionalOneOf } from './one-of';
import { trimString } from './trim';

describe('E164_PATTERN', () => {
  it.each([E164_EXAMPLE, '+1555000', '+123456789012345'])('accepts %s', (n) => {
    expect(E164_PATTERN.test(n)).toBe(true);
  });

  it.each([
    '919876543210',
    '+0123456789',
    '+123456',
    '+1234567890123456',
    '+1 555 000 1234',
    ' +15550001234',
  ])('rejects %p', (n) => {
    expect(E164_PATTERN.test(n)).toBe(false);
  });
});

describe('trimString', () => {
  class Named {
    @Transform(trimString)
    name: unknown;
  }

  it('trims strings before validation', () => {
    expect(plainToInstance(Named, { name: '  Maya \n' }).name).toBe('Maya');
  });

  it.each([42, null, undefined, ['  a  '], { a: ' b ' }])('leaves %p as given', (value) => {
    expect(plainToInstance(Named, { name: value }).name).toEqual(value);
  });
});

describe('OptionalOneOf', () => {
  const COLOURS = ['red', 'green'] as const;
  class Filter {
    @OptionalOneOf(COLOURS)
    colour?: string;
  }
  const errorsOf = (colour: unknown) => validateSync(plainToInstance(Filter, { colour }));

  it('takes one of the values, or nothing', () => {
    expect(errorsOf('green')).toEqual([]);
    expect(errorsOf(undefined)).toEqual([]);
  });

  it('names the field and the values when it is something else', () => {
    expect(errorsOf('blue').map((e) => e.constraints)).toEqual([
      { isIn: 'colour must be one of red, green' },
    ]);
  });

  it('documents the field as an optional enum', () => {
    expect(Reflect.getMetadata('swagger/apiModelProperties', Filter.prototype, 'colour')).toMatchObject({
      enum: COLOURS,
      required: false,
    });
  });
});

describe('queryE164', () => {
  it('reads an unencoded + (a space in a query string) as +, and leaves anything else alone', () => {
    expect(queryE164(' 15550001234')).toBe('+15550001234');
    expect(queryE164('+15550001234')).toBe('+15550001234');
    expect(queryE164('  15550001234')).toBe('  15550001234');
    expect(queryE164(' 1555 0001234')).toBe(' 1555 0001234');
    expect(queryE164(['+1'])).toEqual(['+1']);
  });
});
