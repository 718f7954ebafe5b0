import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/**
 * The lint rule that keeps apps apart: an app may import libs only, a lib may import libs only. These run
 * the repository's real ESLint config on probe sources placed (virtually) inside the projects.
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
});
