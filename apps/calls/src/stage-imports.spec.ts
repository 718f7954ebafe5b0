import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The calls service's top-level folders import one way. Each layer hands a call on to the layers below it and
 * never calls back up: the entry points, then what watches or follows a live call, the transports, the one
 * progress (status and end-of-call write), what a call costs, and the shared kernel every stage reads. A
 * folder imports its own layer one way only, and any lower layer; a lower stage that must reach a higher one
 * does so through a port (a provider token the higher stage provides) or an event.
 */
const LAYERS: readonly (readonly string[])[] = [
  // Entry points: starting calls and sessions, and messages (sent by partners, or by an agent during a call).
  ['admission', 'browser-sessions', 'messages'],
  ['media-sessions', 'balance-guard', 'post-call'],
  ['lifecycle-hooks', 'carriers'],
  ['progress'],
  ['charges'],
  [
    'calls',
    'metrics',
    'telephony',
    'partners',
    'recording',
    'secrets',
    'work-queue',
    'integration-log',
    'config',
  ],
];

/** The wiring, free to import every stage: the app module and main, migrations and the data source, spec rows. */
const WIRING = ['(root)', 'database', 'testing'];

const ROOT = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    // Specs, unit and integration alike, are not a layer's code: they start the app and use the wiring's rows.
    return entry.name.endsWith('.ts') && !/[.-]spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

function folderOf(path: string): string {
  const parts = relative(ROOT, path).split(sep);
  return parts.length > 1 ? parts[0] : '(root)';
}

/** Every relative import of the service's source files (bare `'.'` and `'..'` too): the importing file and the path it names. */
function relativeImports(): { file: string; target: string }[] {
  return sourceFiles(ROOT).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}(?:\/[^'"]*)?)['"]/g)]
      .map((match) => ({ file, target: resolve(dirname(file), match[1]) }))
      .filter(({ target }) => !relative(ROOT, target).startsWith('..')),
  );
}

/** Every import between two top-level folders, as `from -> to` with the files that make it. */
function folderImports(): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const { file, target } of relativeImports()) {
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    const key = `${from} -> ${to}`;
    imports.set(key, [...(imports.get(key) ?? []), relative(ROOT, file)]);
  }
  return imports;
}

describe('calls stage imports', () => {
  const imports = folderImports();
  const edges = [...imports.keys()].map((key) => key.split(' -> ') as [string, string]);

  it('finds the imports it checks', () => {
    expect(imports.get('admission -> carriers')?.length).toBeGreaterThan(0);
  });

  it('has no pair of folders importing each other both ways', () => {
    const both = edges
      .filter(([from, to]) => from < to && imports.has(`${to} -> ${from}`))
      .map(([from, to]) => ({
        pair: `${from} <-> ${to}`,
        [`${from} -> ${to}`]: imports.get(`${from} -> ${to}`),
        [`${to} -> ${from}`]: imports.get(`${to} -> ${from}`),
      }));
    expect(both).toEqual([]);
  });

  it('places every folder in a layer (or the wiring)', () => {
    const folders = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const placed = new Set([...LAYERS.flat(), ...WIRING]);
    expect(folders.filter((folder) => !placed.has(folder))).toEqual([]);
  });

  it('imports only its own layer or lower ones', () => {
    const layerOf = new Map(LAYERS.flatMap((layer, i) => layer.map((folder) => [folder, i] as const)));
    const upward = edges
      .filter(([from, to]) => layerOf.has(from) && layerOf.has(to))
      .filter(([from, to]) => (layerOf.get(to) ?? 0) < (layerOf.get(from) ?? 0))
      .map(([from, to]) => ({ [`${from} -> ${to}`]: imports.get(`${from} -> ${to}`) }));
    expect(upward).toEqual([]);
  });
});

/**
 * A stage's use cases (`<stage>/usecases/<verb-noun>/`, novu's shape) sit above the stage's own kernel: the module,
 * its handlers and the use-case index wire them; no other file of the stage imports one, and no file of another
 * stage does, its use cases and wiring included (what two stages share lives in the lower one's kernel). A use
 * case may build on another of its stage (creating a session answers what getting it answers), never both ways.
 */
describe('calls use cases', () => {
  const posix = (path: string) => relative(ROOT, path).split(sep).join('/');
  const useCaseOf = (path: string): string | null => {
    const match = /^(.*\/usecases\/[^/]+)\//.exec(posix(path));
    return match ? match[1] : null;
  };
  /** A use case, or a stage's use-case index (`<stage>/usecases`), which hands them all out. */
  const isUseCaseTarget = (path: string): boolean => /(^|\/)usecases(\/|$)/.test(posix(path));
  const wiring = /(\.module|\.handlers|\/usecases\/index)\.ts$|^(app\.module|main)\.ts$/;
  /** Whether `file` may import `target`: anything but a use case, or a use case of its own stage from its wiring or use cases. */
  const mayImport = (file: string, target: string): boolean =>
    !isUseCaseTarget(target) ||
    (folderOf(file) === '(root)' && wiring.test(posix(file))) ||
    (folderOf(file) === folderOf(target) && (useCaseOf(file) !== null || wiring.test(posix(file))));
  const reachingIn = (found: { file: string; target: string }[]) =>
    found
      .filter(({ file, target }) => !mayImport(file, target))
      .map(({ file, target }) => `${posix(file)} -> ${posix(target)}`);
  const imports = relativeImports();

  it('are found', () => {
    const useCases = new Set(
      sourceFiles(ROOT)
        .map(useCaseOf)
        .filter((u): u is string => u !== null),
    );
    expect(useCases).toContain('media-sessions/usecases/transfer-call');
    expect(useCases).toContain('admission/usecases/start-call');
  });

  it('are named verb-noun, one folder each, in a usecases folder', () => {
    const badNames = sourceFiles(ROOT)
      .map(useCaseOf)
      .filter((u): u is string => u !== null)
      .filter((u) => !/\/usecases\/[a-z]+(?:-[a-z]+)+$/.test(u));
    expect([...new Set(badNames)]).toEqual([]);
    const strayUseCases = sourceFiles(ROOT)
      .filter((file) => file.endsWith('.usecase.ts'))
      .filter((file) => useCaseOf(file) === null)
      .map((file) => relative(ROOT, file));
    expect(strayUseCases).toEqual([]);
  });

  it('are imported by the wiring and use cases of their stage only', () => {
    expect(reachingIn(imports)).toEqual([]);
  });

  it('catches another stage, its wiring or its use cases, reaching into a use case', () => {
    const at = (path: string) => join(ROOT, path);
    const probes = [
      // Reaching in: another stage's module, another stage's use case, a plain file of the stage, another stage's
      // file taking the use-case index.
      ['carriers/carriers.module.ts', 'admission/usecases/start-call/start-call.usecase'],
      ['media-sessions/usecases/follow-up-ended-call/x.ts', 'progress/usecases/sweep-stale-calls/sweeper'],
      ['admission/call-admission.ts', 'admission/usecases/start-call/call-dialer'],
      ['browser-sessions/attach.ts', 'media-sessions/usecases'],
      // Fine: the stage's module and handlers, a use case on another of its stage, a kernel file of another stage.
      ['admission/admission.module.ts', 'admission/usecases/start-call/call-dialer'],
      ['admission/inbound/inbound-calls.handlers.ts', 'admission/inbound/usecases/answer-inbound-call/x'],
      [
        'browser-sessions/usecases/create-browser-session/c.ts',
        'browser-sessions/usecases/get-browser-session/g',
      ],
      ['media-sessions/usecases/follow-up-ended-call/x.ts', 'progress/end-reasons'],
    ].map(([file, target]) => ({ file: at(file), target: at(target) }));
    expect(reachingIn(probes)).toEqual([
      'carriers/carriers.module.ts -> admission/usecases/start-call/start-call.usecase',
      'media-sessions/usecases/follow-up-ended-call/x.ts -> progress/usecases/sweep-stale-calls/sweeper',
      'admission/call-admission.ts -> admission/usecases/start-call/call-dialer',
      'browser-sessions/attach.ts -> media-sessions/usecases',
    ]);
  });

  it('build on each other one way only', () => {
    const edges = new Set(
      imports
        .map(({ file, target }) => [useCaseOf(file), useCaseOf(target)] as const)
        .filter(([from, to]) => from !== null && to !== null && from !== to)
        .map(([from, to]) => `${from} -> ${to}`),
    );
    const both = [...edges].filter((edge) => {
      const [from, to] = edge.split(' -> ');
      return edges.has(`${to} -> ${from}`);
    });
    expect(both).toEqual([]);
  });
});
