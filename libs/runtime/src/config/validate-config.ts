import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { applyDevelopmentValues } from './development-values';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m} (got ${JSON.stringify(e.value)})`),
  );
}

/**
 * Builds a typed config from the environment, or throws ConfigError listing every bad or missing value.
 * Development-only values (see DevelopmentValue) fill in or are refused according to NODE_ENV first.
 */
export function validateConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const development = applyDevelopmentValues(cls, env);
  const config = plainToInstance(cls, development.env, {
    enableImplicitConversion: false,
    exposeDefaultValues: true,
  });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  const problems = [...development.problems, ...describe(errors)];
  if (problems.length) throw new ConfigError(problems);
  return config;
}
