import { Transform } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { BaseServiceConfig } from './base.config';
import { BoolSetting, IntSetting } from './settings';
import { ConfigError, shownValue, validateConfig } from './validate-config';

const problemsOf = (cls: new () => object, env: NodeJS.ProcessEnv): string[] => {
  try {
    validateConfig(cls, env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);

/** The decorator stacks IntSetting and BoolSetting replace, to hold them to the same results. */
class Stacked {
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(100)
  LIMIT: number = 50;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  COUNT: number = 7;
}

class Decorated {
  @IntSetting({ min: 10, max: 100 })
  LIMIT: number = 50;

  @IntSetting({ min: 0 })
  COUNT: number = 7;
}

class Flags {
  @BoolSetting()
  ON: boolean = true;

  @BoolSetting()
  OFF: boolean = false;
}

class StringFlag {
  @IsIn(['true', 'false'])
  ON: string = 'true';
}

describe('IntSetting', () => {
  it('reads an integer, and keeps the default when unset', () => {
    expect(validateConfig(Decorated, { LIMIT: '42', COUNT: '1000000' })).toMatchObject({
      LIMIT: 42,
      COUNT: 1_000_000,
    });
    expect(validateConfig(Decorated, {})).toMatchObject({ LIMIT: 50, COUNT: 7 });
    expect(validateConfig(Decorated, { LIMIT: '10', COUNT: '0' })).toMatchObject({ LIMIT: 10, COUNT: 0 });
  });

  it.each(['9', '101', '42.5', 'forty', '-1', ' ', ''])(
    'refuses LIMIT=%j as the former stack did',
    (LIMIT) => {
      const problems = problemsOf(Decorated, { LIMIT, COUNT: '-1' });
      expect(problems.length).toBeGreaterThan(0);
      expect(problems).toEqual(problemsOf(Stacked, { LIMIT, COUNT: '-1' }));
    },
  );

  it('says what is wrong, in one line per setting, with the value as it was set', () => {
    expect(problemsOf(Decorated, { LIMIT: '101' })).toEqual([
      'LIMIT: LIMIT must not be greater than 100 (got "101")',
    ]);
    expect(problemsOf(Decorated, { COUNT: '-1' })).toEqual([
      'COUNT: COUNT must not be less than 0 (got "-1")',
    ]);
    expect(problemsOf(Decorated, { COUNT: '1.5' })).toEqual([
      'COUNT: COUNT must be an integer number (got "1.5")',
    ]);
    // Not a number at all: that, once, rather than every range it also misses.
    expect(problemsOf(Decorated, { LIMIT: 'abc' })).toEqual([
      'LIMIT: LIMIT must be an integer number (got "abc")',
    ]);
  });
});

describe('BoolSetting', () => {
  it('reads true and false as booleans, and keeps the default when unset', () => {
    expect(validateConfig(Flags, { ON: 'false', OFF: 'true' })).toMatchObject({ ON: false, OFF: true });
    expect(validateConfig(Flags, {})).toMatchObject({ ON: true, OFF: false });
  });

  it.each(['yes', '1', '0', 'TRUE', 'False', ' true', ''])(
    'refuses ON=%j with the message of the former true/false check',
    (ON) => {
      expect(problemsOf(Flags, { ON })).toEqual([
        `ON: ON must be one of the following values: true, false (got ${JSON.stringify(ON)})`,
      ]);
      expect(problemsOf(Flags, { ON })).toEqual(problemsOf(StringFlag, { ON }));
    },
  );

  it('makes MIGRATIONS_RUN a boolean, true unless set to false', () => {
    expect(validateConfig(BaseServiceConfig, {}).MIGRATIONS_RUN).toBe(true);
    expect(validateConfig(BaseServiceConfig, { MIGRATIONS_RUN: 'true' }).MIGRATIONS_RUN).toBe(true);
    expect(validateConfig(BaseServiceConfig, { MIGRATIONS_RUN: 'false' }).MIGRATIONS_RUN).toBe(false);
    expect(problemsOf(BaseServiceConfig, { MIGRATIONS_RUN: '0' })).toEqual([
      'MIGRATIONS_RUN: MIGRATIONS_RUN must be one of the following values: true, false (got "0")',
    ]);
  });
});

describe('shownValue', () => {
  it('shows a setting as it was set, but never a secret or the password in a URL', () => {
    expect(shownValue('PORT', 'abc')).toBe('got "abc"');
    expect(shownValue('PORT', undefined)).toBe('not set');
    expect(shownValue('SECRETS_KEY', 'a'.repeat(63))).toBe('a value of 63 characters, not shown');
    expect(shownValue('ADMIN_API_TOKEN', 'short')).toBe('a value of 5 characters, not shown');
    expect(shownValue('BLOB_SIGNING_KEY', 'x')).not.toContain('x"');
    expect(shownValue('S3_SECRET_ACCESS_KEY', 'abc')).toBe('a value of 3 characters, not shown');
    expect(shownValue('SANDBOX_CALLBACK_SECRET', 'abc')).toBe('a value of 3 characters, not shown');
    expect(shownValue('DATABASE_URL', 'mysql://u:SuperSecretPw@db/x')).toBe('got "mysql://u:***@db/x"');
    // Settings about keys and tokens, not secrets themselves, are shown.
    expect(shownValue('API_KEY_CACHE_TTL_MS', 'soon')).toBe('got "soon"');
    expect(shownValue('MEDIA_STREAM_TOKEN_TTL_MS', '-1')).toBe('got "-1"');
    expect(shownValue('PUBLIC_BASE_URL', 'notaurl')).toBe('got "notaurl"');
  });
});
