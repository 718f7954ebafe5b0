import { readdirSync } from 'node:fs';
import { join, parse } from 'node:path';

/** A migration file: `<13-digit timestamp>-<name>`, compiled (`.js`) or as written (`.ts`, in specs). */
const MIGRATION_FILE = /^\d{13}-[a-z0-9-]+\.(js|ts)$/;

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type MigrationClass = Function & { prototype: { up: unknown } };

function isMigrationClass(value: unknown): value is MigrationClass {
  return typeof value === 'function' && typeof (value.prototype as { up?: unknown })?.up === 'function';
}

/**
 * Every migration class in `dir`, oldest first, read from its files: a new migration is one new file, with no
 * list to keep beside it that a forgotten line would leave unrun. Classes, not a glob, so what a data source
 * runs can be compared by code (the integration tier names its template databases after it).
 */
export function migrationsIn(dir: string): MigrationClass[] {
  const files = readdirSync(dir).filter((file) => MIGRATION_FILE.test(file));
  const byName = new Map<string, string>();
  // A folder holding both forms (sources beside their output) gives each migration once.
  for (const file of files.sort()) byName.set(parse(file).name, file);
  return [...byName.keys()].flatMap((name) => {
    // Loaded by path because the folder is the list; require (not import()) so a spec's module loader
    // compiles the TypeScript sources as it does every other module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(join(dir, byName.get(name)!)) as Record<string, unknown>;
    const classes = Object.values(exported).filter(isMigrationClass);
    if (classes.length !== 1) {
      throw new Error(`${join(dir, name)} must export exactly one migration class (found ${classes.length})`);
    }
    return classes;
  });
}
