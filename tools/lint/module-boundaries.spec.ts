import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import * as persistence from '@vap/persistence';

const root = join(__dirname, '..', '..');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * The lint rule that keeps apps apart (an app may import libs only, a lib may import libs only), orders the
 * libs in layers (messages -> api -> persistence -> messaging -> runtime) and keeps test helpers out of production
 * code. These run the repository's real ESLint config on probe sources placed (virtually) inside the projects.
 */
describe('module boundaries', () => {
  // One ESLint in a child process for every probe: loading the typed config is most of each lint's cost.
  let linter: ChildProcessWithoutNullStreams | undefined;
  const answers = new Map<number, (answer: { messages?: LintMessage[]; error?: string }) => void>();
  let nextId = 0;

  afterAll(() => {
    linter?.kill();
  });

  function startLinter(): ChildProcessWithoutNullStreams {
    const child = spawn(process.execPath, [join(root, 'tools/lint/lint-probes.mjs')], { cwd: root });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line) as { id: number; messages?: LintMessage[]; error?: string };
      answers.get(answer.id)?.(answer);
      answers.delete(answer.id);
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => {
      for (const answer of answers.values()) answer({ error: `the linter exited (${code}): ${stderr}` });
      answers.clear();
    });
    return child;
  }

  async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
    return ruleErrors('@nx/enforce-module-boundaries', filePath, code);
  }

  async function ruleErrors(ruleId: string, filePath: string, code: string): Promise<string[]> {
    linter ??= startLinter();
    const id = nextId++;
    const answer = await new Promise<{ messages?: LintMessage[]; error?: string }>((resolve) => {
      answers.set(id, resolve);
      linter!.stdin.write(`${JSON.stringify({ id, filePath, code })}\n`);
    });
    if (answer.error) throw new Error(answer.error);
    return answer.messages!.filter((m) => m.ruleId === ruleId).map((m) => m.message);
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
      'libs/messages/src/probe.ts',
      "import { AppModule } from '../../../apps/agents/src/app.module';\nexport const probe = AppModule;\n",
    );
    expect(errors).toHaveLength(1);
  }, 30_000);

  it('lets an app import libs through their aliases', async () => {
    const errors = await boundaryErrors(
      'apps/calls/src/probe.ts',
      "import { AppError } from '@vap/messages';\nimport { CreateAgentDto } from '@vap/api';\nimport { RpcClient } from '@vap/messaging';\nexport const probe = [AppError, CreateAgentDto, RpcClient];\n",
    );
    expect(errors).toEqual([]);
  }, 30_000);

  describe('the console (Preact components in .tsx, compiled without a bundler)', () => {
    it.each([
      ['a component', 'apps/console/src/components/probe.tsx'],
      ['a logic module', 'apps/console/src/components/probe.ts'],
    ])(
      'refuses %s importing another app',
      async (_label, file) => {
        const errors = await boundaryErrors(file, importing('../../../gateway/src/app.module', 'AppModule'));
        expect(errors).toHaveLength(1);
      },
      30_000,
    );

    it.each([
      ['a component', 'apps/console/src/components/probe.tsx'],
      ['a spec', 'apps/console/src/components/probe.spec.ts'],
    ])(
      'refuses %s importing a lib',
      async (_label, file) => {
        expect(await boundaryErrors(file, importing('@vap/messages', 'AppError'))).toEqual([
          expect.stringMatching(/tagged with "type:console" cannot depend on any libs with tags/),
        ]);
      },
      30_000,
    );

    it("lets a component import the console's own modules and Preact", async () => {
      const errors = await boundaryErrors(
        'apps/console/src/components/probe.tsx',
        "import { useState } from 'preact/hooks';\nimport { ApiError } from '../api.js';\nexport const Probe = () => <p>{String([useState, ApiError].length)}</p>;\n",
      );
      expect(errors).toEqual([]);
    }, 30_000);
  });

  // One probe importing `name` from `alias`, so each case below reads as "this file may (not) import that".
  function importing(alias: string, name: string): string {
    return `import { ${name} } from '${alias}';\nexport const probe = ${name};\n`;
  }

  describe('library layers: a lib never imports a higher layer', () => {
    // The core four already import the layer below them, so importing upwards among them is also a cycle,
    // which the rule reports first; the layer rule is what refuses it for the libs nothing depends on yet.
    it.each([
      ['messages', '@vap/api', 'libs/messages/src/probe.ts', 'CreateAgentDto'],
      ['api', '@vap/persistence', 'libs/api/src/probe.ts', 'runMigrations'],
      ['persistence', '@vap/messaging', 'libs/persistence/src/probe.ts', 'OutboxService'],
      ['messaging', '@vap/runtime', 'libs/messaging/src/probe.ts', 'bootstrapService'],
      ['messages (in a spec)', '@vap/messaging', 'libs/messages/src/probe.spec.ts', 'OutboxService'],
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
        // A higher lib that already uses this one (runtime reads @vap/secrets, the test harness messaging uses too) makes the import a cycle, which
        // the rule reports in place of the layer: refused either way.
        expect(await boundaryErrors(file, importing(alias, name))).toEqual([
          expect.stringMatching(
            /tagged with "layer:messages" can only depend on libs tagged with "layer:messages"|^Circular dependency between "secrets" and "(runtime|messaging)"/,
          ),
        ]);
      },
      30_000,
    );

    it.each([
      ['api', 'libs/api/src/probe.ts', "import { AppError } from '@vap/messages';"],
      [
        'persistence',
        'libs/persistence/src/probe.ts',
        "import { AppError } from '@vap/messages';\nimport { CreateAgentDto } from '@vap/api';",
      ],
      [
        'messaging',
        'libs/messaging/src/probe.ts',
        "import { AppError } from '@vap/messages';\nimport { runMigrations } from '@vap/persistence';",
      ],
      [
        'runtime',
        'libs/runtime/src/probe.ts',
        "import { AppError } from '@vap/messages';\nimport { runMigrations } from '@vap/persistence';\nimport { OutboxService } from '@vap/messaging';",
      ],
      [
        'storage',
        'libs/storage/src/probe.ts',
        "import { AppError } from '@vap/messages';\nimport { OutboxService } from '@vap/messaging';",
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
    ])(
      'refuses %s importing @vap/testing',
      async (_label, file) => {
        expect(await boundaryErrors(file, importing('@vap/testing', 'createTestDatabase'))).toEqual([
          expect.stringMatching(/can only depend on libs tagged with "type:lib"|"layer:messages"/),
        ]);
      },
      30_000,
    );

    // The test helpers name the platform's streams with the messages lib's own functions, so they sit above it:
    // the lowest lib, its specs included, cannot import them without a loop.
    it.each([
      ['the lowest lib', 'libs/messages/src/probe.ts'],
      ["the lowest lib's spec", 'libs/messages/src/probe.spec.ts'],
    ])(
      'refuses %s importing @vap/testing',
      async (_label, file) => {
        expect(await boundaryErrors(file, importing('@vap/testing', 'createTestDatabase'))).toEqual([
          expect.stringMatching(/Circular dependency between "messages" and "testing"/),
        ]);
      },
      30_000,
    );

    it.each([
      ['an app spec', 'apps/calls/src/probe.spec.ts'],
      ['a lib spec', 'libs/messaging/src/probe.spec.ts'],
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

  // Each probe stands in for a real file that the modules it imports already import (on disk), closing a loop. A loop
  // between two projects is refused above, as a circular dependency.
  describe('import cycles (vap/no-cycle: import-x/no-cycle, type-only imports counted)', () => {
    const cycleErrors = (filePath: string, code: string) => ruleErrors('vap/no-cycle', filePath, code);

    it('refuses a loop of type-only imports in an app', async () => {
      // tools/tool.ts reads the call-control port's types: the port reading a tool's type back closes a loop.
      const errors = await cycleErrors(
        'apps/voice/src/conversation/call-control-port.ts',
        "import type { ToolTurn } from './tools/tool';\nexport type Probe = ToolTurn;\n",
      );
      expect(errors).toEqual([expect.stringMatching(/^Dependency cycle/)]);
    }, 30_000);

    it('refuses a loop in a lib', async () => {
      // browser-stream.ts implements the codec: the codec file reading the browser stream back closes a loop.
      const errors = await cycleErrors(
        'libs/media/src/streams/media-stream-codec.ts',
        "import { BrowserStreamCodec } from './browser-stream';\nexport const probe = BrowserStreamCodec;\n",
      );
      expect(errors).toEqual([expect.stringMatching(/^Dependency cycle/)]);
    }, 30_000);

    it('lets a module import what does not import it back', async () => {
      const errors = await cycleErrors(
        'apps/voice/src/conversation/probe.ts',
        "import type { ToolTurn } from './tools/tool';\nexport type Probe = ToolTurn;\n",
      );
      expect(errors).toEqual([]);
    }, 30_000);
  });
});
