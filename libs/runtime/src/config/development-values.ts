/**
 * Development conveniences, in one place. A setting marked with `@DevelopmentValue(value)` takes `value`
 * when it is unset and NODE_ENV is exactly `development`; in every other environment (an unset NODE_ENV
 * counts as production) a setting that holds a known development value refuses boot. So a value meant for
 * a laptop can neither be filled in silently nor be copied into a deployment.
 */
export interface DevelopmentValueOptions {
  /**
   * Which values are refused outside development (default: `value` itself). A secret passes a check for
   * every published development secret; a harmless default (a local URL) passes `() => false`.
   */
  refuse?: (raw: string) => boolean;
}

interface DevelopmentValueSpec {
  property: string;
  value?: string;
  refuse: (raw: string) => boolean;
}

const specs = new Map<object, DevelopmentValueSpec[]>();

/** True only for an explicit NODE_ENV=development. */
export function isDevelopment(env: NodeJS.ProcessEnv): boolean {
  return env.NODE_ENV === 'development';
}

/**
 * Marks a setting's development-only default (`undefined`: no default, only refusals). Outside development
 * a value `options.refuse` matches (default: the development value itself) is a configuration error.
 */
export function DevelopmentValue(value: string | undefined, options: DevelopmentValueOptions = {}) {
  return (target: object, property: string): void => {
    const list = specs.get(target.constructor) ?? [];
    list.push({
      property,
      value,
      refuse: options.refuse ?? ((raw) => raw === value),
    });
    specs.set(target.constructor, list);
  };
}

function specsOf(cls: new () => object): DevelopmentValueSpec[] {
  const out: DevelopmentValueSpec[] = [];
  for (
    let c: unknown = cls;
    typeof c === 'function' && c !== Function.prototype;
    c = Object.getPrototypeOf(c)
  ) {
    out.push(...(specs.get(c as object) ?? []));
  }
  return out;
}

/**
 * The environment a config class is built from: in development, unset marked settings take their
 * development values; elsewhere, marked settings holding a development value are listed as problems.
 */
export function applyDevelopmentValues(
  cls: new () => object,
  env: NodeJS.ProcessEnv,
): { env: NodeJS.ProcessEnv; problems: string[] } {
  const out: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  const development = isDevelopment(env);
  for (const spec of specsOf(cls)) {
    const raw = env[spec.property];
    if (development) {
      if ((raw === undefined || raw === '') && spec.value !== undefined) out[spec.property] = spec.value;
    } else if (raw !== undefined && raw !== '' && spec.refuse(raw)) {
      problems.push(
        `${spec.property}: a development-only value, refused unless NODE_ENV=development (set a secret of your own)`,
      );
    }
  }
  return { env: out, problems: [...new Set(problems)] };
}
