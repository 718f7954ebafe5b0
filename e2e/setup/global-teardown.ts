import './register-aliases';
import { relative } from 'node:path';
import { describeExit } from '@vap/testing';
import { cleanUpRun, takeRun } from './e2e-run';

/** Stops the run's platform and removes its stream, consumers and database. */
export default async function globalTeardown(): Promise<void> {
  const run = takeRun();
  if (!run) return;
  const logDir = relative(process.cwd(), run.logDir) || run.logDir;
  const crashed = [...run.crashed];
  const problems = await cleanUpRun(run);
  for (const c of crashed) {
    process.stderr.write(
      `[e2e] ${c.name} ${describeExit(c.exit)} during the run; see ${c.logFile ?? logDir}\n`,
    );
  }
  process.stdout.write(`[e2e] app logs of this run: ${logDir}\n`);
  if (problems.length) throw new Error(`e2e teardown: ${problems.join('; ')}`);
}
