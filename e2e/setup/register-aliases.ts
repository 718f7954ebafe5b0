/**
 * Jest applies moduleNameMapper inside test files only, not to globalSetup/globalTeardown. This maps the
 * workspace's path aliases (@vap/*, from tsconfig.base.json) to their sources for those two, so that
 * they can use the libs like any test does. Jest's transformer compiles the TypeScript it then loads.
 */
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

type ResolveFilename = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: ResolveFilename & { vapAliases?: true } };

if (!loader._resolveFilename.vapAliases) {
  const root = resolve(__dirname, '..', '..');
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const aliases = new Map(
    Object.entries(tsconfig.compilerOptions.paths).map(([alias, [target]]) => [alias, join(root, target)]),
  );
  const original = loader._resolveFilename;
  const patched = function (this: unknown, request: string, ...rest: unknown[]): string {
    return original.call(this, aliases.get(request) ?? request, ...rest);
  } as ResolveFilename & { vapAliases?: true };
  patched.vapAliases = true;
  loader._resolveFilename = patched;
}
