// Runs the longest spec files first, so that neither worker is left with a long e2e spec at the end of the run
// while the other idles. Jest's own sequencer does this only from its local cache of earlier runs, which a
// fresh clone (CI) does not have; there it falls back to file size, which says little about an e2e spec's
// real-time waits. Here the recorded durations (`spec-durations.json`, refreshed with
// `node tools/jest/record-durations.js` after a full run) stand in for the missing cache.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const recorded = require('./spec-durations.json');

const ROOT = path.resolve(__dirname, '..', '..');
const isE2e = (file) => file.endsWith('.e2e-spec.ts');

/** The median recorded duration of e2e specs or of the others: what a spec not recorded yet counts as. */
function medianOf(e2e) {
  const values = Object.entries(recorded)
    .filter(([file]) => isE2e(file) === e2e)
    .map(([, ms]) => ms)
    .sort((a, b) => a - b);
  return values.length ? values[Math.floor(values.length / 2)] : 0;
}
const MEDIAN = { e2e: medianOf(true), other: medianOf(false) };

class DurationSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const durationOf = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached;
      const file = path.relative(ROOT, test.path).split(path.sep).join('/');
      // A spec not recorded yet (new since the last refresh) counts as an average one of its kind.
      return recorded[file] ?? (isE2e(file) ? MEDIAN.e2e : MEDIAN.other);
    };
    // Failed specs first (Jest's order for them), then the rest longest first.
    const failed = sorted.filter((test) => this.hasFailed(test));
    const rest = sorted.filter((test) => !this.hasFailed(test));
    return [...failed, ...rest.sort((a, b) => durationOf(b) - durationOf(a))];
  }
}

module.exports = DurationSequencer;
