import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as persistence from '@vap/persistence';

const root = join(__dirname, '..', '..');

/**
 * The lint rule that keeps apps apart (an app may import libs only, a lib may import libs only), orders the
 * libs in layers (contracts -> persistence -> messaging -> runtime) and keeps test helpers out of production
 * code. These run the repository's real ESLint config on probe sources placed (virtually) inside the projects.
 */
describe('module boundaries', () => {
  // The ESLint CLI in a child process: its flat config is an ES module, which Jest's VM cannot load.
  async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/eslint/bin/eslint.js'),
        '--stdin',
        '--stdin-filename',
        filePath,
        '--format',
        'json',
      ],
      { cwd: root, input: code, encoding: 'utf8' },
    );
    const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
    return result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
  }

  it('refuses an app importing another app', async () => {
    const errors = await boundaryErrors(
      'apps/calls/src/probe.ts',
      "import { AppModule } from '../../gateway/src/app.module';\nexport const probe = AppModule;\n",
    );
    expect(errors).toHaveLength(1);
  }, 30_000);

  it('refuses a lib importing an app', async () => {
    const errors = await boundaryErrors(
      'libs/contracts/src/probe.ts',
      "import { AppModule } from '../../../apps/agents/src/app.module';\nexport const probe = AppModule;\n",
    );
    expect(errors).toHaveLength(1);
  }, 30_000);

  it('lets an app import libs through their aliases', async () => {
    const errors = await boundaryErrors(
      'apps/calls/src/probe.ts',
      "import { AppError } from '@vap/contracts';\nimport { RpcClient } from '@vap/messaging';\nexport const probe = [AppError, RpcClient];\n",
    );
    expect(errors).toEqual([]);
  }, 30_000);

  // One probe importing `name` from `alias`, so each case below reads as "this file may (not) import that".
  function importing(alias: string, name: string): string {
    return `import { ${name} } from '${alias}';\nexport const probe = ${name};\n`;
  }

  describe('library layers: a lib never imports a higher layer', () => {
    // The core four already import the layer below them, so importing upwards among them is also a cycle,
    // which the rule reports first; the layer rule is what refuses it for the libs nothing depends on yet.
    it.each([
      ['contracts', '@vap/persistence', 'libs/contracts/src/probe.ts', 'runMigrations'],
      ['persistence', '@vap/messaging', 'libs/persistence/src/probe.ts', 'OutboxService'],
      ['messaging', '@vap/runtime', 'libs/messaging/src/probe.ts', 'bootstrapService'],
      ['contracts (in a spec)', '@vap/messaging', 'libs/contracts/src/probe.spec.ts', 'OutboxService'],
    ])(
      'refuses %s importing %s',
      async (_label, alias, file, name) => {
        expect(await boundaryErrors(file, importing(alias, name))).toHaveLength(1);
      },
      30_000,
    );

    it.each([
      ['secrets', '@vap/runtime', 'libs/secrets/src/probe.ts', 'bootstrapService'],
      ['secrets', '@vap/messaging', 'libs/secrets/src/probe.ts', 'OutboxService'],
      ['egress', '@vap/persistence', 'libs/egress/src/probe.ts', 'runMigrations'],
      ['egress (in a spec)', '@vap/runtime', 'libs/egress/src/probe.spec.ts', 'bootstrapService'],
    ])(
      'refuses %s, a lowest-layer lib, importing %s',
      async (_label, alias, file, name) => {
        expect(await boundaryErrors(file, importing(alias, name))).toEqual([
          expect.stringContaining(
            'tagged with "layer:contracts" can only depend on libs tagged with "layer:contracts"',
          ),
        ]);
      },
      30_000,
    );

    it.each([
      ['persistence', 'libs/persistence/src/probe.ts', "import { AppError } from '@vap/contracts';"],
      [
        'messaging',
        'libs/messaging/src/probe.ts',
        "import { AppError } from '@vap/contracts';\nimport { runMigrations } from '@vap/persistence';",
      ],
      [
        'runtime',
        'libs/runtime/src/probe.ts',
        "import { AppError } from '@vap/contracts';\nimport { runMigrations } from '@vap/persistence';\nimport { OutboxService } from '@vap/messaging';",
      ],
      [
        'storage',
        'libs/storage/src/probe.ts',
        "import { AppError } from '@vap/contracts';\nimport { OutboxService } from '@vap/messaging';",
      ],
    ])(
      'lets %s import the layers below it',
      async (_label, file, imports) => {
        expect(await boundaryErrors(file, `${imports}\nexport const probe = 1;\n`)).toEqual([]);
      },
      30_000,
    );
  });

  describe('test helpers (@vap/testing) stay out of production code', () => {
    it.each([
      ['an app', 'apps/calls/src/probe.ts'],
      ['a lib', 'libs/runtime/src/probe.ts'],
      ['the lowest lib', 'libs/contracts/src/probe.ts'],
    ])(
      'refuses %s importing @vap/testing',
      async (_label, file) => {
        expect(await boundaryErrors(file, importing('@vap/testing', 'createTestDatabase'))).toEqual([
          expect.stringMatching(/can only depend on libs tagged with "type:lib"|"layer:contracts"/),
        ]);
      },
      30_000,
    );

    it.each([
      ['an app spec', 'apps/calls/src/probe.spec.ts'],
      ['a lib spec', 'libs/contracts/src/probe.spec.ts'],
      ["a lib's own test kit", 'libs/messaging/src/testing/probe.ts'],
      ['an e2e spec', 'e2e/src/probe.e2e-spec.ts'],
      ['e2e support', 'e2e/support/probe.ts'],
      ['a tool', 'tools/start/probe.ts'],
      ['a benchmark', 'bench/support/probe.ts'],
    ])(
      'lets %s import @vap/testing',
      async (_label, file) => {
        expect(await boundaryErrors(file, importing('@vap/testing', 'createTestDatabase'))).toEqual([]);
      },
      30_000,
    );

    it('keeps the test database helper out of the persistence barrel', () => {
      expect(persistence).toHaveProperty('runMigrations');
      expect(persistence).not.toHaveProperty('createTestDatabase');
    });
  });
});
