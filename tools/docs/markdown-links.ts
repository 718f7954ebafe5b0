import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The project's prose: the README, the guides, the benchmark and Kubernetes notes. */
export function documentationFiles(root: string): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return docs(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return [
    'README.md',
    'CONTRIBUTING.md',
    'CHANGELOG.md',
    'bench/README.md',
    'k8s/README.md',
    ...docs('docs'),
  ].filter((file) => existsSync(join(root, file)));
}

/** Markdown without fenced code blocks, where neither a heading nor a link is one. */
/** Markdown without fenced code blocks and inline code, where a `[x](y)` is not a link. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingAnchor(match[1]);
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
}

export interface BrokenLink {
  file: string;
  target: string;
  problem: string;
}

/** Relative links in `file` whose file is missing, or whose #anchor names no heading of a markdown file. */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const text = readFileSync(join(root, file), 'utf8');
  const broken: BrokenLink[] = [];
  for (const match of withoutCode(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [pathPart, anchor] = target.split('#', 2);
    const path = pathPart
      ? resolve(dirname(join(root, file)), decodeURIComponent(pathPart))
      : join(root, file);
    if (!existsSync(path)) {
      broken.push({ file, target, problem: `${relative(root, path)} does not exist` });
      continue;
    }
    if (anchor && statSync(path).isFile() && path.endsWith('.md')) {
      if (!anchorsOf(readFileSync(path, 'utf8')).has(anchor.toLowerCase())) {
        broken.push({ file, target, problem: `${relative(root, path)} has no heading #${anchor}` });
      }
    }
  }
  return broken;
}
