// Prints where the test suite stands against its targets, from the jest-results.json of a full run (`npm test`
// writes it; `node tools/jest/record-durations.js` turns the same file into spec-durations.json): the run's time,
// the spec files' time by tier with e2e's against the baseline, retried tests, passing assertions against the
// baseline, and the use case folders still without an integration spec.
// A report, not a gate: it exits 0 whatever it finds (the test run itself is the gate); `--strict` makes a missed
// target exit 1. A retried test (no tier retries one now; one set up again would show here) is listed with its
// first failure.
//
//   node tools/jest/test-targets.js [jest-results.json] [--npm-test-seconds N] [--strict]
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const ROOT = path.resolve(__dirname, '..', '..');
// The figures the targets are judged against: e2e's recorded time when the integration tier was asked for, the
// passing assertions of the first full run with the tier (the specs moved out of e2e counted in it: a later run
// with fewer has lost some), and npm test's ceiling on 2 cores.
const BASELINE = require('./test-baseline.json');

/**
 * A failure in a few lines: its message up to the stack (expected and received, for an expectation), then the
 * spec line that failed.
 */
function firstFailure(reason = '') {
  const lines = stripVTControlCharacters(reason)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const stackAt = lines.findIndex((l) => l.startsWith('at '));
  const message = (stackAt < 0 ? lines : lines.slice(0, stackAt)).slice(0, 6);
  const specLine = lines.slice(Math.max(stackAt, 0)).find((l) => /^at .*spec\.[jt]s:\d+/.test(l));
  return [...message, ...(specLine ? [specLine] : [])].join(' | ').slice(0, 600);
}

function option(name) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}
const args = process.argv.slice(2);
const positional = args.filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--npm-test-seconds');
const resultsFile = path.resolve(positional[0] ?? path.join(ROOT, 'jest-results.json'));
const strict = process.argv.includes('--strict');
const npmTestSeconds = option('--npm-test-seconds') ? Number(option('--npm-test-seconds')) : undefined;

const isE2e = (file) => file.endsWith('.e2e-spec.ts');
const isIntegration = (file) => file.endsWith('.integration-spec.ts');

/** Every `usecases/<verb-noun>/` folder under apps/, relative to the root. */
function useCaseFolders() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.name === 'usecases') {
        for (const useCase of fs.readdirSync(full, { withFileTypes: true }))
          if (useCase.isDirectory()) found.push(path.join(full, useCase.name));
      } else walk(full);
    }
  };
  walk(path.join(ROOT, 'apps'));
  return found.map((dir) => path.relative(ROOT, dir).split(path.sep).join('/')).sort();
}

function main() {
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  const runRoot = path.dirname(resultsFile);
  let e2eMs = 0;
  let integrationMs = 0;
  let otherMs = 0;
  let lastEnd = results.startTime;
  let assertions = 0;
  const retried = [];
  for (const file of results.testResults) {
    const name = path.relative(runRoot, file.name).split(path.sep).join('/');
    const ms = file.endTime > file.startTime ? file.endTime - file.startTime : 0;
    if (isE2e(name)) e2eMs += ms;
    else if (isIntegration(name)) integrationMs += ms;
    else otherMs += ms;
    lastEnd = Math.max(lastEnd, file.endTime ?? 0);
    for (const test of file.assertionResults) {
      assertions += test.numPassingAsserts ?? 0;
      if ((test.invocations ?? 1) > 1) {
        retried.push(`${name}: ${test.fullName}\n    first failure: ${firstFailure(test.retryReasons?.[0])}`);
      }
    }
  }
  const jestSeconds = (lastEnd - results.startTime) / 1000;
  const e2eSeconds = e2eMs / 1000;
  const withoutSpec = useCaseFolders().filter(
    (dir) => !fs.readdirSync(path.join(ROOT, dir)).some((f) => isIntegration(f)),
  );

  const rows = [];
  const target = (name, figure, goal, met) => rows.push({ name, figure, goal, met });
  if (npmTestSeconds !== undefined)
    target(
      'npm test',
      `${Math.round(npmTestSeconds)} s`,
      `< ${BASELINE.npmTestTargetSeconds} s`,
      npmTestSeconds < BASELINE.npmTestTargetSeconds,
    );
  target('jest wall time', `${Math.round(jestSeconds)} s`, 'part of npm test', true);
  target(
    'e2e spec time',
    `${Math.round(e2eSeconds)} s (${Math.round((100 * e2eMs) / (e2eMs + integrationMs + otherMs || 1))} % of spec time)`,
    `< ${Math.round(BASELINE.e2eRecordedSeconds / 2)} s (half of ${BASELINE.e2eRecordedSeconds} s recorded)`,
    e2eSeconds < BASELINE.e2eRecordedSeconds / 2,
  );
  target(
    'integration spec time',
    `${Math.round(integrationMs / 1000)} s`,
    'the tier between unit and e2e',
    true,
  );
  target(
    'tests',
    `${results.numPassedTests} passed, ${results.numFailedTests} failed`,
    'none failed',
    results.numFailedTests === 0,
  );
  target(
    'passing assertions',
    String(assertions),
    BASELINE.assertions ? `>= ${BASELINE.assertions} (baseline)` : 'baseline not recorded',
    !BASELINE.assertions || assertions >= BASELINE.assertions,
  );
  target('retried tests', String(retried.length), '0', retried.length === 0);
  target(
    'use case folders without an integration spec',
    String(withoutSpec.length),
    '0',
    withoutSpec.length === 0,
  );

  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows)
    console.log(`${r.met ? 'met ' : 'MISS'}  ${r.name.padEnd(width)}  ${r.figure}  (target ${r.goal})`);
  for (const t of retried) console.log(`  retried: ${t}`);
  for (const dir of withoutSpec) console.log(`  no integration spec: ${dir}`);
  if (strict && rows.some((r) => !r.met)) process.exitCode = 1;
}

main();
