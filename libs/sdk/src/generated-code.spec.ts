import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..', '..');
const COMMITTED = join(__dirname, 'generated');
const GENERATOR = join(ROOT, 'libs/sdk/scripts/generate.mjs');

function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const file = join(d, name);
      if (statSync(file).isDirectory()) walk(file);
      else files.set(relative(dir, file), readFileSync(file, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/**
 * The committed SDK is what the generator makes from the gateway's OpenAPI document today (built from
 * dist/apps/gateway, so this runs after the build, as `npm test` does). A route added, removed or changed
 * without regenerating fails here.
 */
describe('the generated SDK', () => {
  let out: string;

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'vap-sdk-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is what `npm run sdk:generate` makes from the current OpenAPI document', async () => {
    if (!existsSync(join(ROOT, 'dist/apps/gateway/apps/gateway/src/app.module.js'))) {
      throw new Error('the gateway is not built: run `npm run build` (or `npx nx build gateway`) first');
    }
    await promisify(execFile)(process.execPath, [GENERATOR, '--out', out], { cwd: ROOT });
    const fresh = tree(out);
    const committed = tree(COMMITTED);
    const problems = [
      ...[...fresh.keys()].filter((f) => !committed.has(f)).map((f) => `missing: ${f}`),
      ...[...committed.keys()].filter((f) => !fresh.has(f)).map((f) => `no longer generated: ${f}`),
      ...[...fresh]
        .filter(([f, text]) => committed.has(f) && committed.get(f) !== text)
        .map(([f]) => `differs: ${f}`),
    ];
    if (problems.length) {
      throw new Error(
        `libs/sdk/src/generated is out of date with the OpenAPI document; run npm run sdk:generate and commit the result.\n  ${problems.join('\n  ')}`,
      );
    }
  }, 120_000);
});
