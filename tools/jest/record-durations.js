// Writes spec-durations.json (spec file → milliseconds it took) from the jest-results.json of a full run
// (`npm test` writes it), for the duration sequencer. Run after a full run when specs were added or moved.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
// The results name spec files by absolute path under the checkout that ran them (the file's own folder).
const resultsFile = path.resolve(process.argv[2] ?? path.join(ROOT, 'jest-results.json'));
const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
const runRoot = path.dirname(resultsFile);
const durations = {};
for (const file of results.testResults) {
  const { startTime: start, endTime: end } = file;
  if (!(end > start)) continue;
  durations[path.relative(runRoot, file.name).split(path.sep).join('/')] = end - start;
}
const values = Object.values(durations);
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(path.join(__dirname, 'spec-durations.json'), JSON.stringify(sorted, null, 2) + '\n');
console.log(`recorded ${values.length} spec durations`);
