#!/usr/bin/env node
/**
 * Completes package-lock.json with the other-platform optional packages (e.g. @swc/core-darwin-arm64)
 * that a registry mirror without them leaves out. `npm ci` refuses a lockfile that lacks an entry for any
 * declared optional dependency; an entry with its `os`/`cpu` lets npm skip the package on this platform,
 * exactly as a lockfile written against the full registry would.
 *
 * Run after `npm install` changed the lockfile: `node tools/lockfile/add-foreign-optional-deps.js`.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const lockPath = path.join(root, 'package-lock.json');
const PLATFORM =
  /(darwin|linux|win32|freebsd|android|openbsd|sunos|aix)-(x64|arm64|arm|ia32|ppc64le|ppc64|s390x|riscv64|loong64|universal)/;

function missingFromLock() {
  try {
    execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: root,
      stdio: 'pipe',
    });
    return [];
  } catch (err) {
    const out = `${err.stdout ?? ''}${err.stderr ?? ''}`;
    return [...out.matchAll(/Missing: (\S+)@\S* from lock file/g)].map((m) => m[1]);
  }
}

const missing = missingFromLock();
if (missing.length === 0) {
  console.log('package-lock.json is complete');
  process.exit(0);
}
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
for (const name of missing) {
  const parent = Object.values(lock.packages).find(
    (meta) => meta.optionalDependencies && name in meta.optionalDependencies,
  );
  const platform = PLATFORM.exec(name);
  const version = parent?.optionalDependencies[name];
  if (!parent || !platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
    console.error(
      `cannot complete ${name}: not a platform-specific optional dependency; run npm install instead`,
    );
    process.exit(1);
  }
  lock.packages[`node_modules/${name}`] = {
    version,
    optional: true,
    os: [platform[1]],
    cpu: [platform[2]],
  };
  console.log(`added ${name}`);
}
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
