import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  importNames,
  layerOf,
  layerOrders,
  libraryNames,
  libraryTable,
  lintLayers,
  namedLibs,
  unknownLibs,
} from './library-docs';
import { documentationFiles } from './markdown-links';

const ROOT = resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the docs about the libraries', () => {
  const libs = libraryNames(ROOT);
  const imports = importNames(ROOT);
  const layers = lintLayers(read('eslint.config.mjs'));

  it('finds the libs, their import names and the lint layers', () => {
    expect(libs).toEqual(expect.arrayContaining(['messages', 'api', 'persistence', 'messaging', 'runtime']));
    expect(imports).toEqual(expect.arrayContaining(['@vap/messages', '@vap/api']));
    expect(layers.length).toBeGreaterThanOrEqual(2);
  });

  // The changelog keeps the names libs had then.
  it.each(documentationFiles(ROOT).filter((file) => file !== 'CHANGELOG.md'))(
    '%s names only libs that exist',
    (file) => {
      expect(unknownLibs(read(file), libs, imports)).toEqual([]);
    },
  );

  it('architecture.md has one row per lib, with its import name', () => {
    const table = libraryTable(read('docs/architecture.md'));
    expect(table.map((row) => row.lib).sort()).toEqual(libs);
    for (const { lib, importName } of table) expect(importName).toBe(`@vap/${lib}`);
  });

  it.each(['docs/architecture.md', 'CONTRIBUTING.md'])(
    '%s writes the layer order the lint enforces',
    (file) => {
      const orders = layerOrders(read(file));
      expect(orders.length).toBeGreaterThan(0);
      for (const order of orders) expect(order).toEqual(layers);
    },
  );

  it('every lib is tagged with a layer the lint knows', () => {
    const unknown = libs
      .map((lib) => [lib, layerOf(ROOT, lib)] as const)
      .filter(([lib, layer]) => lib !== 'testing' && (layer === null || !layers.includes(layer)));
    expect(unknown).toEqual([]);
  });
});

describe('reading the docs about the libraries', () => {
  const libs = ['api', 'messages', 'speech'];
  const imports = ['@vap/api', '@vap/messages', '@vap/speech', '@vap/speech/testing'];

  it('reports a lib path or import name that names no lib, on its line', () => {
    const text = [
      'Contracts live in `libs/contracts` (`@vap/contracts`), messages in `libs/messages/src/`.',
      'Fakes: `@vap/speech/testing`; no `@vap/speech/fakes`. [sdk](../libs/sdk/README.md) is a link.',
    ].join('\n');
    expect(namedLibs(text).map((n) => n.name)).toEqual([
      'libs/contracts',
      '@vap/contracts',
      'libs/messages',
      '@vap/speech/testing',
      '@vap/speech/fakes',
    ]);
    expect(unknownLibs(text, libs, imports)).toEqual([
      { name: 'libs/contracts', line: 1 },
      { name: '@vap/contracts', line: 1 },
      { name: '@vap/speech/fakes', line: 2 },
    ]);
  });

  it("reads the Libraries table's rows, and no other table", () => {
    const markdown = [
      '## Where',
      '| `libs/elsewhere` | not the table |',
      '## Libraries',
      '',
      '| Lib | Holds |',
      '|---|---|',
      '| `libs/messages` (`@vap/messages`) | contracts |',
      '| `libs/speech` | speech |',
      '',
      '## Further reading',
      '| `libs/after` | not the table either |',
    ].join('\n');
    expect(libraryTable(markdown)).toEqual([
      { lib: 'messages', importName: '@vap/messages' },
      { lib: 'speech', importName: null },
    ]);
  });

  it('reads layer orders written as inline code', () => {
    expect(
      layerOrders('layered `contracts -> persistence`, and `a -> b -> c`; not outbox -> JetStream'),
    ).toEqual([
      ['contracts', 'persistence'],
      ['a', 'b', 'c'],
    ]);
  });

  it("reads the lint config's LAYERS", () => {
    expect(lintLayers("const LAYERS = ['layer:messages', 'layer:api'];\nconst OTHER = ['layer:x'];")).toEqual(
      ['messages', 'api'],
    );
    expect(() => lintLayers('export default [];')).toThrow(/no LAYERS/);
  });
});
