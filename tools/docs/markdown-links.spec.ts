import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brokenLinks, documentationFiles, headingAnchor } from './markdown-links';

const ROOT = resolve(__dirname, '..', '..');

describe('links in the documentation', () => {
  it('covers the README, the guides and the benchmark and Kubernetes notes', () => {
    const files = documentationFiles(ROOT);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'CONTRIBUTING.md',
        'bench/README.md',
        'k8s/README.md',
        'docs/api.md',
      ]),
    );
  });

  it.each(documentationFiles(ROOT))(
    'every relative link in %s points at a file (and heading) that exists',
    (file) => {
      expect(brokenLinks(ROOT, file)).toEqual([]);
    },
  );
});

describe('broken link finder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'doc-links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\n\n## Two `words`, here\n\n## Two words here\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds missing files and missing headings, and ignores code, external links and good ones', () => {
    writeFileSync(
      join(root, 'README.md'),
      [
        '[ok](docs/guide.md) [ok](docs/guide.md#two-words-here) [ok](docs/guide.md#two-words-here-1)',
        '[gone](docs/missing.md) [no heading](docs/guide.md#three) [web](https://example.com/x.md)',
        '`[code](nowhere.md)`',
        '```',
        '[fenced](nowhere.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(root, 'README.md')).toEqual([
      { file: 'README.md', target: 'docs/missing.md', problem: 'docs/missing.md does not exist' },
      { file: 'README.md', target: 'docs/guide.md#three', problem: 'docs/guide.md has no heading #three' },
    ]);
  });

  it('writes anchors as GitHub does', () => {
    expect(headingAnchor('Two `words`, here')).toBe('two-words-here');
    expect(headingAnchor('Hot paths: where the time goes')).toBe('hot-paths-where-the-time-goes');
    expect(headingAnchor('NATS_USER and more')).toBe('nats_user-and-more');
  });
});
