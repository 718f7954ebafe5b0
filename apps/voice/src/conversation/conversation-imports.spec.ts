import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The turn loop is reached only through the conversation's module (its index): units depend on the port,
 * tools on their turn, the session on the module's exports. A file that imported `conversation.ts` itself
 * would couple to the loop's insides again, which is what the port exists to prevent.
 */
const VOICE_SRC = resolve(__dirname, '..');
const LOOP = join(__dirname, 'conversation');
const OWNER = join(__dirname, 'index.ts');

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative imports of a source text (static, dynamic and re-exports), resolved against its file. */
function importsOf(file: string, source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    resolve(dirname(file), m[1]).replace(/\.(js|ts)$/, ''),
  );
}

function importersOfLoop(files: { path: string; source: string }[]): string[] {
  return files
    .filter(({ path, source }) => importsOf(path, source).includes(LOOP))
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
