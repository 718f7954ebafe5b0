// Lints probe sources for module-boundaries.spec.ts with the repository's real ESLint config, loaded once:
// each stdin line is {"id", "filePath", "code"}; each stdout line is {"id", "messages"} or {"id", "error"}.
// A child process because the flat config is an ES module, which Jest's VM cannot load.
import { createInterface } from 'node:readline';
import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';

// Nx's module-boundaries rule reads the cached project graph and skips itself when there is none (a fresh clone):
// the graph is computed (and cached) first, as `npm run lint` does with `nx show projects`.
await createProjectGraphAsync({ exitOnError: true });
const eslint = new ESLint({ cwd: process.cwd() });

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, filePath, code } = JSON.parse(line);
  try {
    const [result] = await eslint.lintText(code, { filePath });
    const messages = result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
    process.stdout.write(`${JSON.stringify({ id, messages })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id, error: String(err?.stack ?? err) })}\n`);
  }
}
