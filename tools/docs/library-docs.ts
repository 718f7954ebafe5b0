// What the docs say about the libraries, read back so a spec can hold it to the repository: the libs under
// libs/, their import names, the layer order the lint config enforces.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The libs: the folders under libs/ that are Nx projects. */
export function libraryNames(root: string): string[] {
  return readdirSync(join(root, 'libs'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'libs', entry.name, 'project.json')))
    .map((entry) => entry.name)
    .sort();
}

/** The import names (`@vap/x`, `@vap/x/testing`) tsconfig.base.json maps to sources. */
export function importNames(root: string): string[] {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.keys(compilerOptions.paths).sort();
}

/** A lib's `layer:` tag in its project.json (without the prefix), or null. */
export function layerOf(root: string, lib: string): string | null {
  const { tags = [] } = JSON.parse(readFileSync(join(root, 'libs', lib, 'project.json'), 'utf8')) as {
    tags?: string[];
  };
  const layer = tags.find((tag) => tag.startsWith('layer:'));
  return layer ? layer.slice('layer:'.length) : null;
}

/** The layer order of the lint config's LAYERS, lowest first (without the `layer:` prefix). */
export function lintLayers(eslintConfig: string): string[] {
  const match = /const LAYERS = \[([^\]]*)\]/.exec(eslintConfig);
  if (!match) throw new Error('the lint config has no LAYERS list');
  return [...match[1].matchAll(/'layer:([a-z-]+)'/g)].map((m) => m[1]);
}

export interface NamedLib {
  /** As written: `libs/x` or `@vap/x/sub`. */
  name: string;
  line: number;
}

/** Every lib a markdown text names by path (`libs/x`) or import name (`@vap/x`, `@vap/x/sub`). */
export function namedLibs(markdown: string): NamedLib[] {
  const named: NamedLib[] = [];
  markdown.split('\n').forEach((text, i) => {
    for (const match of text.matchAll(/(?<![\w/.-])(libs\/[a-z0-9-]+|@vap\/[a-z0-9-]+(?:\/[a-z0-9-]+)?)/g))
      named.push({ name: match[1], line: i + 1 });
  });
  return named;
}

/** The names of `text` that name no lib: a `libs/x` that is not a lib, an `@vap/x` no path maps. */
export function unknownLibs(text: string, libs: string[], imports: string[]): NamedLib[] {
  return namedLibs(text).filter(({ name }) =>
    name.startsWith('libs/') ? !libs.includes(name.slice('libs/'.length)) : !imports.includes(name),
  );
}

/** The rows of the table under `## Libraries`: each row's lib path and import name, as its first cell has them. */
export function libraryTable(markdown: string): { lib: string; importName: string | null }[] {
  const section = /^## Libraries\n([\s\S]*?)(?=^## )/m.exec(markdown)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `libs/'))
    .map((line) => {
      const cell = line.split('|')[1];
      return {
        lib: /`libs\/([a-z0-9-]+)`/.exec(cell)![1],
        importName: /`(@vap\/[a-z0-9-]+)`/.exec(cell)?.[1] ?? null,
      };
    });
}

/** Every layer order a markdown text writes as inline code: `a -> b -> c`. */
export function layerOrders(markdown: string): string[][] {
  return [...markdown.matchAll(/`([a-z-]+(?: -> [a-z-]+)+)`/g)].map((m) => m[1].split(' -> '));
}
