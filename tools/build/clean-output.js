// Empties a project's build output before tsc writes it again. tsc only adds and overwrites files: a source
// that was moved or deleted (tools.ts becoming tools/index.ts) would leave its old .js behind, and Node's
// resolution would load the stale file first. Plain JavaScript so it runs before any build.
const { rmSync } = require('node:fs');
const { resolve, relative } = require('node:path');

const root = resolve(__dirname, '..', '..');
const target = resolve(root, process.argv[2] ?? '');
const inside = relative(resolve(root, 'dist'), target);
// Only a folder strictly inside dist/ is ever removed.
if (!process.argv[2] || inside === '' || inside.startsWith('..')) {
  console.error(
    `usage: node tools/build/clean-output.js dist/<project output>  (got ${process.argv[2] ?? 'nothing'})`,
  );
  process.exit(2);
}
rmSync(target, { recursive: true, force: true });
