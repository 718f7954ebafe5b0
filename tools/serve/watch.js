#!/usr/bin/env node
'use strict';
/**
 * `nx serve <app>`: builds one app in watch mode and restarts it after every good rebuild.
 *
 * `tsc --watch` on the app's tsconfig follows its sources and the libs it imports (through the path
 * aliases). After each compile without errors, tsc-alias rewrites the aliases in the output, then the
 * running app gets SIGTERM and is waited for (graceful shutdown) before the new build starts. A compile
 * with errors keeps the running app. Ctrl-C stops the app the same way, then the compiler.
 *
 * Plain JavaScript so it runs without a build of its own.
 * Usage: node tools/serve/watch.js <app>
 */
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { existsSync } = require('node:fs');

const root = join(__dirname, '..', '..');
const app = process.argv[2];
const tsconfig = join('apps', String(app), 'tsconfig.app.json');
if (!app || !existsSync(join(root, tsconfig))) {
  console.error(`usage: node tools/serve/watch.js <app>  (no ${tsconfig})`);
  process.exit(2);
}
const main = join('dist', 'apps', app, 'apps', app, 'src', 'main.js');
const tscBin = require.resolve('typescript/bin/tsc', { paths: [root] });
const tscAliasBin = join(root, 'node_modules', '.bin', 'tsc-alias');

// tsc ends every watch compile with "Found N errors. Watching for file changes."
const COMPILE_DONE = /Found (\d+) errors?\. Watching for file changes\./;

const say = (line) => process.stdout.write(`[serve ${app}] ${line}\n`);
// The terminal may be gone (nx quit on Ctrl-C) while the app is still being stopped: never fail on output.
process.stdout.on('error', () => undefined);

let child; // the running app: { process, exited: Promise, stopped: boolean }
let restarting = false;
let restartAgain = false;
let stopping = false;

function run(command, args, options) {
  return new Promise((resolve) => {
    const proc = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    proc.on('error', (err) => {
      say(`${command}: ${err.message}`);
      resolve(1);
    });
    proc.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

function startApp() {
  say(`starting ${main}`);
  // Same process group: a Ctrl-C reaches the app too (it drains on SIGINT), even if nx quits first.
  const proc = spawn(process.execPath, [main], { cwd: root, stdio: 'inherit' });
  const entry = { process: proc, stopped: false };
  entry.exited = new Promise((resolve) => {
    proc.on('exit', (code, signal) => {
      if (child && child.process === proc) child = undefined;
      if (!entry.stopped) say(`app exited (${signal ?? `code ${code}`}); waiting for a change`);
      resolve();
    });
  });
  child = entry;
}

async function stopApp() {
  if (!child) return;
  const running = child;
  running.stopped = true;
  running.process.kill('SIGTERM');
  say('stopping the app (SIGTERM)');
  await running.exited;
}

async function restart() {
  if (restarting) {
    restartAgain = true;
    return;
  }
  restarting = true;
  do {
    restartAgain = false;
    if ((await run(tscAliasBin, ['-p', tsconfig])) !== 0) {
      say('tsc-alias failed; the app keeps running');
      continue;
    }
    await stopApp();
    if (!stopping) startApp();
  } while (restartAgain && !stopping);
  restarting = false;
}

const compiler = spawn(process.execPath, [tscBin, '-p', tsconfig, '--watch', '--preserveWatchOutput'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let partial = '';
compiler.stdout.setEncoding('utf8');
compiler.stdout.on('data', (chunk) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) {
    process.stdout.write(`${line}\n`);
    const done = COMPILE_DONE.exec(line);
    if (!done || stopping) continue;
    if (done[1] === '0') void restart();
    else say(`${done[1]} compile error(s); the app keeps running the last good build`);
  }
});
compiler.on('exit', (code) => {
  if (!stopping) {
    say(`tsc exited (code ${code})`);
    void shutdown(1);
  }
});

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await stopApp();
  compiler.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
