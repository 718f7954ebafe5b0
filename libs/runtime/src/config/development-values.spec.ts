import { IsString, MinLength } from 'class-validator';
import { BaseServiceConfig } from './base.config';
import { DevelopmentValue } from './development-values';
import { ConfigError, validateConfig } from './validate-config';

class TokenConfig extends BaseServiceConfig {
  @DevelopmentValue('dev-token-value', { refuse: (raw) => raw.toLowerCase() === 'dev-token-value' })
  @IsString()
  @MinLength(12, { message: 'TOKEN must be set, at least 12 characters' })
  TOKEN: string = '';
}

const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
  try {
    validateConfig(TokenConfig, env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('development values', () => {
  it('an unset NODE_ENV is production: no development default fills in', () => {
    expect(validateConfig(BaseServiceConfig, {}).NODE_ENV).toBe('production');
    expect(problemsOf({})).toEqual([expect.stringMatching(/^TOKEN: TOKEN must be set/)]);
  });

  it('fills an unset or empty setting only with NODE_ENV=development', () => {
    expect(validateConfig(TokenConfig, { NODE_ENV: 'development' }).TOKEN).toBe('dev-token-value');
    expect(validateConfig(TokenConfig, { NODE_ENV: 'development', TOKEN: '' }).TOKEN).toBe('dev-token-value');
    expect(validateConfig(TokenConfig, { NODE_ENV: 'development', TOKEN: 'my-own-token-1' }).TOKEN).toBe(
      'my-own-token-1',
    );
    expect(problemsOf({ NODE_ENV: 'test' })).toEqual([expect.stringMatching(/^TOKEN: TOKEN must be set/)]);
  });

  it.each([undefined, 'production', 'test'])(
    'refuses a known development value with NODE_ENV=%s, in one line',
    (NODE_ENV) => {
      for (const TOKEN of ['dev-token-value', 'DEV-TOKEN-VALUE']) {
        expect(problemsOf({ NODE_ENV, TOKEN })).toEqual([
          'TOKEN: a development-only value, refused unless NODE_ENV=development (set a secret of your own)',
        ]);
      }
      expect(problemsOf({ NODE_ENV, TOKEN: 'a-real-operator-token' })).toEqual([]);
    },
  );

  it('accepts the development value in development', () => {
    expect(problemsOf({ NODE_ENV: 'development', TOKEN: 'dev-token-value' })).toEqual([]);
  });
});
