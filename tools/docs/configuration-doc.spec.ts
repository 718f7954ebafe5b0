import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { envExampleVariableNames } from '@vap/runtime';
import {
  CONFIGURATION_DOC,
  configurationMarkdown,
  readConfigClasses,
  settingsByApp,
} from './configuration-doc';

const ROOT = resolve(__dirname, '..', '..');

describe('docs/configuration.md', () => {
  const classes = readConfigClasses(ROOT);

  it('is what `npm run docs:config` generates from the config classes today', () => {
    const committed = readFileSync(join(ROOT, CONFIGURATION_DOC), 'utf8');
    // On a mismatch: run `npm run docs:config` and commit the result.
    expect(committed).toBe(configurationMarkdown(classes, ROOT));
  });

  // Each app's own spec holds its .env.example to the settings it validates at run time; this holds the
  // generator to the same list, so a setting the app validates cannot be missing from the doc.
  it.each([...settingsByApp(classes)])('lists every setting %s validates', (app, documented) => {
    expect(envExampleVariableNames(join(ROOT, 'apps', app, '.env.example'))).toEqual(documented);
  });
});

describe('configuration doc generator', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'config-doc-'));
    write(
      'tsconfig.base.json',
      JSON.stringify({ compilerOptions: { paths: { '@x/lib': ['libs/x/src/index.ts'] } } }),
    );
    write('libs/x/src/index.ts', "export * from './base';\n");
    write(
      'libs/x/src/base.ts',
      "export class Base {\n  /** Where the log goes. */\n  @IsString()\n  LOG_TO: string = 'stdout';\n}\n",
    );
    write(
      'apps/one/src/main.ts',
      "import { Base } from '@x/lib';\nimport { OneConfig } from './one.config';\n" +
        "bootstrapService({ name: 'one', configClass: OneConfig, settings: [Base] });\n",
    );
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('documents each validated setting of the classes an app bootstraps, with default, range and meaning', () => {
    write(
      'apps/one/src/one.config.ts',
      "import { Base } from '@x/lib';\nexport class OneConfig extends Base {\n" +
        '  /** Jobs at once.\n   * @default `4` per core */\n  @IntSetting({ min: 1, max: 8 })\n  JOBS: number = cores();\n' +
        '  /** Deadline. */\n  @IntSetting({ min: 1 })\n  WAIT_MS: number = 60_000;\n' +
        '  notASetting = 1;\n}\n',
    );
    const doc = configurationMarkdown(readConfigClasses(root), root);
    expect(doc).toContain('| `JOBS` | `4` per core | integer 1..8 | Jobs at once. |');
    expect(doc).toContain('| `WAIT_MS` | `60000` | integer ≥ 1 | Deadline. |');
    expect(doc).toContain('| `LOG_TO` | `stdout` |  | Where the log goes. |');
    expect(doc).not.toContain('notASetting');
  });

  it('refuses a setting without a meaning or with a default it cannot read', () => {
    write(
      'apps/one/src/one.config.ts',
      "export class OneConfig {\n  @IsString()\n  BARE: string = 'x';\n" +
        '  /** Computed. */\n  @IsString()\n  COMPUTED: string = make();\n}\n',
    );
    expect(() => readConfigClasses(root)).toThrow(
      /OneConfig\.BARE has no JSDoc[\s\S]*OneConfig\.COMPUTED's default/,
    );
  });
});
