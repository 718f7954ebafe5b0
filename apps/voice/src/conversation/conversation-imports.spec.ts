import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The turn loop is reached only through the conversation's module (its index): units depend on the port,
 * tools on their turn, the session on the module's exports. A file that imported `conversation.ts` itself
 * would couple to the loop's insides again, which is what the port exists to prevent. The index is the
 * module's face to the outside, so no unit of the folder imports it either: it re-exports createConversation,
 * and a unit reaching it would reach the whole loop (and close a cycle through the index).
 */
const VOICE_SRC = resolve(__dirname, '..');
const LOOP = join(__dirname, 'conversation');
const OWNER = join(__dirname, 'index.ts');
/** The module as an import names it: the folder itself (`'..'`, `'../index'`, `'../../conversation'`). */
const MODULE = __dirname;

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The relative imports of a source text (static, dynamic and re-exports, bare `'.'` and `'..'` included),
 * resolved against its file; a folder's index is named by its folder.
 */
function importsOf(file: string, source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}(?:\/[^'"]*)?)['"]/g)].map((m) =>
    resolve(dirname(file), m[1])
      .replace(/\.(js|ts)$/, '')
      .replace(/[/\\]index$/, ''),
  );
}

function importersOfLoop(files: { path: string; source: string }[]): string[] {
  return files
    .filter(({ path, source }) => importsOf(path, source).includes(LOOP))
    .map(({ path }) => relative(VOICE_SRC, path));
}

/** Test code drives the conversation from outside, as the session does: its specs and test kits (testing/). */
function isTestCode(path: string): boolean {
  return path.endsWith('.spec.ts') || relative(__dirname, path).split(sep).includes('testing');
}

/** The folder's own units (its index and test code aside) that import the module's index. */
function unitsImportingModule(files: { path: string; source: string }[]): string[] {
  return files
    .filter(({ path }) => path.startsWith(__dirname + sep) && path !== OWNER && !isTestCode(path))
    .filter(({ path, source }) => importsOf(path, source).includes(MODULE))
    .map(({ path }) => relative(VOICE_SRC, path));
}

describe('who imports conversation.ts', () => {
  it('is its module (conversation/index.ts) only, across apps/voice/src, specs included', () => {
    // This spec's own probes are text, not imports.
    const files = typeScriptFiles(VOICE_SRC)
      .filter((path) => path !== __filename)
      .map((path) => ({ path, source: readFileSync(path, 'utf8') }));
    expect(importersOfLoop(files)).toEqual([relative(VOICE_SRC, OWNER)]);
  });

  it('catches a unit or a session file that reaches past the module', () => {
    const probes = [
      {
        path: join(__dirname, 'idle', 'probe.ts'),
        source: "import { createConversation } from '../conversation';",
      },
      {
        path: join(VOICE_SRC, 'session', 'probe.ts'),
        source: "export * from '../conversation/conversation.js';",
      },
      {
        path: join(VOICE_SRC, 'session', 'fine.ts'),
        source: "import { createConversation } from '../conversation';",
      },
    ];
    expect(importersOfLoop(probes)).toEqual(['conversation/idle/probe.ts', 'session/probe.ts']);
  });
});

describe('who imports the conversation module (conversation/index.ts)', () => {
  it('is no unit of the conversation folder', () => {
    const files = typeScriptFiles(__dirname)
      .filter((path) => path !== __filename)
      .map((path) => ({ path, source: readFileSync(path, 'utf8') }));
    expect(unitsImportingModule(files)).toEqual([]);
  });

  it('catches a unit that imports the index however it names it, and lets the session and test code do so', () => {
    const probes = [
      { path: join(__dirname, 'idle', 'probe.ts'), source: "import { Phrases } from '..';" },
      { path: join(__dirname, 'idle', 'slash.ts'), source: "import { Phrases } from '../';" },
      { path: join(__dirname, 'policy.ts'), source: "import type { AgentModel } from './index';" },
      { path: join(__dirname, 'dot.ts'), source: "export { Phrases } from '.';" },
      {
        path: join(__dirname, 'tools', 'far.ts'),
        source: "const m = import('../../conversation/index.js');",
      },
      { path: join(__dirname, 'tools', 'own.ts'), source: "import { ToolRegistry } from '.';" },
      { path: join(__dirname, 'testing', 'kit.ts'), source: "import { createConversation } from '..';" },
      { path: join(__dirname, 'idle', 'idle.spec.ts'), source: "import { Phrases } from '..';" },
      {
        path: join(VOICE_SRC, 'session', 'fine.ts'),
        source: "import { createConversation } from '../conversation';",
      },
    ];
    expect(unitsImportingModule(probes)).toEqual([
      'conversation/idle/probe.ts',
      'conversation/idle/slash.ts',
      'conversation/policy.ts',
      'conversation/dot.ts',
      'conversation/tools/far.ts',
    ]);
  });
});
