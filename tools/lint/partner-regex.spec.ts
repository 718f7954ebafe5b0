import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

/**
 * Production files that may compile a regular expression or a schema themselves, each from the platform's own
 * constants only. Everything a partner writes goes through `libs/messages/src/safety/partner-patterns.ts`
 * (`compilePartnerSchema`, `literalRegExp`, `regexKeywordPath`): a backtracking regex fed by one tenant would
 * stall a service's only thread for every tenant.
 */
const ALLOWED: Record<string, string> = {
  'libs/messages/src/safety/partner-patterns.ts': 'the safety module itself',
  'apps/gateway/src/http/csv-body.route.ts': 'route prefixes: constants',
  'apps/gateway/src/callbacks/callbacks.route.ts': 'route prefixes: constants',
  'apps/gateway/src/uploads/uploads.route.ts': 'route prefixes: constants',
  'apps/gateway/src/connectors/connect-pages.route.ts': 'route prefixes: constants',
  'libs/llm/src/offline-extraction.ts': 'month names: constants',
  'libs/media/src/offline/flite-engine.ts': "the engine's temp-folder prefix: a constant",
  'libs/messages/src/pagination/cursor.ts': 'the uuid pattern: a constant',
  'libs/messages/src/ids/uuid.ts': 'the uuid pattern: a constant',
  'libs/messages/src/ids/prefixed-id.ts': "an id type's prefix: constants",
  'libs/sdk/src/idempotency.ts':
    "the SDK's route templates, escaped: constants, and the SDK runs in the partner's process",
};

/** `new RegExp(`, a bare `RegExp(` call, an ajv compiler, or a schema compile. */
const COMPILES = /\bnew\s+RegExp\s*\(|(?<![\w.$])RegExp\s*\(|\bnew\s+Ajv\w*\s*\(|\.compile(?:Async)?\s*\(/;

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'testing') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.(spec|e2e-spec|integration-spec)\.ts$/.test(entry.name))
      out.push(path);
  }
  return out;
}

describe('partner input never compiles a regex or a schema outside the safety module', () => {
  const files = [...sources(join(root, 'apps')), ...sources(join(root, 'libs'))];

  it('finds the production sources', () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it('compiles regexes and schemas only in the allowed files', () => {
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(root, file)}:${i + 1}` }))
        .filter(({ line, at }) => COMPILES.test(line) && !(at.replace(/:\d+$/, '') in ALLOWED))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lists no allowed file that no longer compiles anything', () => {
    const stale = Object.keys(ALLOWED).filter(
      (file) =>
        !readFileSync(join(root, file), 'utf8')
          .split('\n')
          .some((l) => COMPILES.test(l)),
    );
    expect(stale).toEqual([]);
  });

  it('catches each way of compiling', () => {
    for (const line of [
      'new RegExp(schema.pattern).test(value)',
      'const r = RegExp(x);',
      'const ajv = new Ajv({ strict: false });',
      'const ajv = new Ajv2020();',
      'ajv.compile(schema)',
      'await ajv.compileAsync(schema)',
    ])
      expect(COMPILES.test(line)).toBe(true);
    expect(COMPILES.test('const isRegExp = value instanceof RegExp;')).toBe(false);
  });
});
