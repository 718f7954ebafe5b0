// History-based routing under /console: the gateway answers every console page path with index.html, so a
// deep link (a call's page, an invitation) opens directly.
import { useEffect, useState } from 'preact/hooks';

export const ROOT = '/console';

/** The path inside the console ('/agents/agt_…'), without the query. */
function currentPath(): string {
  const path = window.location.pathname;
  const inner = path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
  return inner === '' ? '/' : inner;
}

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  const url = `${ROOT}${to}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** Runs `listener` after each navigation (a link, back or forward); answers the function that stops it. */
export function onNavigate(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return path;
}

/** The path's segments: '/calls/abc' -> ['calls', 'abc']. */
export function segments(path: string): string[] {
  return path.split('/').filter(Boolean).map(decodeURIComponent);
}

/** A link inside the console that navigates without a page load. */
export function linkProps(to: string): { href: string; onClick: (e: MouseEvent) => void } {
  return {
    href: `${ROOT}${to}`,
    onClick: (e: MouseEvent) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(to);
    },
  };
}
