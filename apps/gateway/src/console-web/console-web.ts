import { createHash } from 'node:crypto';
import { Dirent, existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Where the gateway's build puts the partner console (apps/console), beside the compiled app. */
export const CONSOLE_DIR = join(__dirname, '..', '..', '..', '..', 'console');

/** The path the console is served under; its API (`/console/api`) belongs to the console API module. */
export const CONSOLE_PATH = '/console';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The console's pages run only the console's own scripts and styles and talk only to this origin and the voice
 * service (`mediaPublicUrl`, where a person talks to an agent from the console); no page of another site may
 * frame it (clickjacking), and invitation and reset links never leave in a Referer. `blob:` scripts are the web
 * client's audio worklets, which it builds from its own code (browsers load worklets only from a URL).
 */
export function consoleSecurityHeaders(mediaPublicUrl?: string): Record<string, string> {
  const media = mediaOrigins(mediaPublicUrl);
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self' blob:",
      // Inline style attributes (chart colours); no inline script is allowed.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "media-src 'self' blob:",
      ["connect-src 'self'", ...media].join(' '),
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    // The microphone only for the console itself (talking to an agent); nothing else of the device.
    'Permissions-Policy': 'microphone=(self), camera=(), geolocation=()',
  };
}

/** The voice service's origin as a page reaches it: its WebSocket scheme (and the http one it was given as). */
function mediaOrigins(mediaPublicUrl: string | undefined): string[] {
  if (!mediaPublicUrl) return [];
  let url: URL;
  try {
    url = new URL(mediaPublicUrl);
  } catch {
    return [];
  }
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  return [`${secure ? 'wss' : 'ws'}://${url.host}`, `${secure ? 'https' : 'http'}://${url.host}`];
}

interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** The folders and files the console's pages load; index.html is the page shell. */
const ASSET_DIRS = ['app', 'vendor'];
const ASSET_FILES = ['styles.css', 'index.html'];

/**
 * Every file the console's build holds that it may serve, by its path under the folder (`app/main.js`), read
 * once. Nothing else is ever looked up or remembered, so a request for a missing file costs nothing to keep.
 */
export function readConsoleFiles(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const add = (relative: string) => {
    const type = TYPES[extname(relative)];
    if (!type) return;
    const body = readFileSync(join(dir, relative));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    files.set(relative, { body, type, etag });
  };
  const walk = (relative: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${relative}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) add(child);
    }
  };
  for (const folder of ASSET_DIRS) walk(folder);
  for (const file of ASSET_FILES) if (existsSync(join(dir, file))) add(file);
  return files;
}

/**
 * Serves the partner console: its files (app/, vendor/, styles.css) and, for every other GET under /console
 * but its API, the page shell (index.html), so that a deep link such as /console/calls/<id> opens the app
 * there. The files are listed and read at start; modules are revalidated by ETag (their names carry no hash).
 */
export function consoleWeb(
  options: { dir?: string; mediaPublicUrl?: string } = {},
): RequestHandler & { files: ReadonlyMap<string, unknown> } {
  const files = readConsoleFiles(options.dir ?? CONSOLE_DIR);
  const headers = consoleSecurityHeaders(options.mediaPublicUrl);
  const handler = (req: Request, res: Response, next: NextFunction) => {
    // Mounted at /console: req.path is what follows it.
    const path = req.path;
    if (path === '/api' || path.startsWith('/api/')) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.originalUrl === CONSOLE_PATH) return res.redirect(301, `${CONSOLE_PATH}/`);
    const isAsset = path.startsWith('/app/') || path.startsWith('/vendor/') || path === '/styles.css';
    const file = files.get(isAsset ? path.slice(1) : 'index.html');
    if (!file) return next();
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', file.etag);
    if (req.headers['if-none-match'] === file.etag) return void res.status(304).end();
    res.status(200).setHeader('Content-Type', file.type);
    res.setHeader('Content-Length', String(file.body.length));
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };
  return Object.assign(handler, { files });
}
