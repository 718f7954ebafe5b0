import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { mostTellingCheck } from '@vap/messaging';
import { withoutPassword } from './shown-url';
import { applyDevelopmentValues } from './development-values';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Settings whose values are secrets (SECRETS_KEY, ADMIN_API_TOKEN, S3_SECRET_ACCESS_KEY...): a refusal names
 * them but never prints them, as boot output goes to logs. API_KEY_CACHE_TTL_MS and the like are not secrets.
 */
const SECRET_SETTING = /(KEY|TOKEN|SECRET|PASSWORD)$/i;

/** A setting's value as a refusal shows it: as set, but never a secret or a URL's password. */
export function shownValue(name: string, raw: string | undefined): string {
  if (raw === undefined) return 'not set';
  if (SECRET_SETTING.test(name)) return `a value of ${raw.length} characters, not shown`;
  return `got ${JSON.stringify(withoutPassword(raw))}`;
}

/** One line per bad setting: the most telling of the checks it failed, with the value as it was set. */
function describe(errors: ValidationError[], env: NodeJS.ProcessEnv): string[] {
  return errors.flatMap((e) => {
    const constraints = e.constraints ?? {};
    const check = mostTellingCheck(constraints);
    if (check === undefined) return [];
    return [`${e.property}: ${constraints[check]} (${shownValue(e.property, env[e.property])})`];
  });
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
  const problems = [...development.problems, ...describe(errors, development.env)];
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** A config class: its properties are settings, read from the environment by validateConfig. */
export type ConfigClass<T extends object = object> = new () => T;

/** The validated instance of each of a service's config classes. */
export class ValidatedConfigs {
  constructor(private readonly byClass: ReadonlyMap<ConfigClass, object>) {}

  /** The validated instance of `cls`; a class the service did not declare is a programming error. */
  get<T extends object>(cls: ConfigClass<T>): T {
    const config = this.byClass.get(cls);
    if (!config) throw new Error(`${cls.name} is not one of this service's config classes`);
    return config as T;
  }

  classes(): ConfigClass[] {
    return [...this.byClass.keys()];
  }
}

/**
 * Validates several config classes against one environment, so that one run lists every bad setting (each
 * once: classes may share a setting), or throws ConfigError with all of them.
 */
export function validateConfigs(
  classes: ConfigClass[],
  env: NodeJS.ProcessEnv = process.env,
): ValidatedConfigs {
  const byClass = new Map<ConfigClass, object>();
  const problems: string[] = [];
  for (const cls of classes) {
    try {
      byClass.set(cls, validateConfig(cls, env));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems.filter((p) => !problems.includes(p)));
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return new ValidatedConfigs(byClass);
}
