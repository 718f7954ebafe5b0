import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

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

/** Builds a typed config from the environment, or throws ConfigError listing every bad or missing value. */
export function validateConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const config = plainToInstance(
    cls,
    { ...env },
    { enableImplicitConversion: false, exposeDefaultValues: true },
  );
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length) throw new ConfigError(describe(errors));
  return config;
}
