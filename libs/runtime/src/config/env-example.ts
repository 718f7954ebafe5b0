import { readFileSync } from 'node:fs';
import { getMetadataStorage } from 'class-validator';

/**
 * The environment variables a set of config classes reads: every validated UPPER_CASE property (derived
 * values such as a computed signing secret are validated too, but are not read from the environment).
 */
export function configVariableNames(...classes: (new () => object)[]): string[] {
  const names = classes.flatMap((cls) =>
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', true, false)
      .map((m) => m.propertyName)
      .filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name)),
  );
  return [...new Set(names)].sort();
}

/**
 * The variables a .env.example documents: `NAME=value` lines, set or commented out (`# NAME=value` for
 * optional ones), so a test can hold the file to the config classes.
 */
export function envExampleVariableNames(path: string): string[] {
  const names = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line.trim())?.[1])
    .filter((name): name is string => !!name);
  return [...new Set(names)].sort();
}
