import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** The repository root (the folder holding nx.json), found from this file's location. */
export function workspaceRoot(from: string = __dirname): string {
  if (from === __dirname && cached) return cached;
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) {
      if (from === __dirname) cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${from}: cannot find the workspace root`);
    dir = parent;
  }
}

/** Where `nx build` puts an app's entry point. */
export function serviceMainPath(name: string, root: string = workspaceRoot()): string {
  return join(root, 'dist', 'apps', name, 'apps', name, 'src', 'main.js');
}
