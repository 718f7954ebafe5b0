import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { speechProviderTable } from './provider-table';

describe('docs/voice.md speech provider table', () => {
  it('is the table the registry makes (regenerate with the snippet in the spec when a plugin changes)', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/voice.md'), 'utf8');
    // To regenerate: paste the output of speechProviderTable() between the markers.
    const between = /<!-- speech-providers:start -->\n([\s\S]*?)\n<!-- speech-providers:end -->/.exec(doc);
    expect(between?.[1]).toBe(speechProviderTable());
  });
});
