import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationsIn } from './migrations-in';

const migration = (name: string) =>
  `exports.${name} = class ${name} { async up() {} async down() {} };\nexports.SEEDS = ['not a class'];\n`;

describe('migrationsIn', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'migrations-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads every migration file of the folder, oldest first, and nothing else', () => {
    writeFileSync(join(dir, '1765000000000-later.js'), migration('Later1765000000000'));
    writeFileSync(join(dir, '1764000000000-first.js'), migration('First1764000000000'));
    writeFileSync(join(dir, '1764000000000-first.js.map'), '{}');
    writeFileSync(join(dir, 'README.md'), '# not a migration');
    writeFileSync(join(dir, 'helpers.js'), migration('Helper'));

    expect(migrationsIn(dir).map((m) => m.name)).toEqual(['First1764000000000', 'Later1765000000000']);
  });

  it('refuses a migration file without exactly one migration class', () => {
    writeFileSync(join(dir, '1764000000000-empty.js'), 'exports.SEEDS = [];\n');

    expect(() => migrationsIn(dir)).toThrow(
      /1764000000000-empty must export exactly one migration class \(found 0\)/,
    );
  });
});
