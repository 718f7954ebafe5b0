import express from 'express';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_PATH, consoleSecurityHeaders, consoleWeb } from './console-web';

describe('consoleWeb', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let handler: ReturnType<typeof consoleWeb>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-web-'));
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'app', 'main.js'), 'export {};');
    writeFileSync(join(dir, 'secret.txt'), 'not served');
    const app = express();
    handler = consoleWeb({ dir, mediaPublicUrl: 'https://media.example.com' });
    app.use(CONSOLE_PATH, handler);
    app.use((req, res) => res.status(404).json({ fell_through: req.originalUrl }));
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page shell for any console page, with its security headers', async () => {
    for (const path of ['/console/', '/console/calls/7d4d2c1a', '/console/invitations/tok']) {
      const res = await fetch(base + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<title>console</title>');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      // The voice service, where a person talks to an agent from the console, and nowhere else.
      expect(res.headers.get('content-security-policy')).toContain(
        "connect-src 'self' wss://media.example.com https://media.example.com;",
      );
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const bare = await fetch(`${base}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
  });

  it('lets the pages reach no voice service when none is configured', () => {
    const csp = consoleSecurityHeaders(undefined)['Content-Security-Policy'];
    expect(csp).toContain("connect-src 'self';");
    expect(consoleSecurityHeaders('http://127.0.0.1:3005')['Content-Security-Policy']).toContain(
      "connect-src 'self' ws://127.0.0.1:3005 http://127.0.0.1:3005;",
    );
  });

  it('serves modules with an ETag and answers 304 to it', async () => {
    const res = await fetch(`${base}/console/app/main.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const again = await fetch(`${base}/console/app/main.js`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('never serves another file of its folder, nor one outside it', async () => {
    for (const path of [
      '/console/secret.txt',
      '/console/app/%2e%2e/secret.txt',
      '/console/app/..%2fsecret.txt',
      '/console/vendor/..%2f..%2f..%2fetc%2fpasswd',
    ]) {
      const res = await fetch(base + path);
      expect(await res.text()).not.toMatch(/not served|root:/);
    }
  });

  it('leaves the console API, other methods and unknown modules to the router', async () => {
    for (const [method, path] of [
      ['GET', '/console/api/session'],
      ['POST', '/console/agents'],
      ['GET', '/console/app/missing.js'],
    ]) {
      const res = await fetch(base + path, { method });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(await res.json()).toHaveProperty('fell_through');
    }
  });

  it('serves only the files the build held at start, and remembers no miss', async () => {
    expect([...handler.files.keys()].sort()).toEqual(['app/main.js', 'index.html']);
    const long = 'x'.repeat(8000);
    for (const path of [`/console/app/${long}.js`, `/console/vendor/${long}.js`, '/console/app/missing.js']) {
      const res = await fetch(base + path);
      expect(res.status).toBe(404);
      await res.text();
    }
    // A file that appears later is not looked up either: what is served was listed at start.
    writeFileSync(join(dir, 'app', 'late.js'), 'export {};');
    expect((await fetch(`${base}/console/app/late.js`)).status).toBe(404);
    expect(handler.files.size).toBe(2);
  });
});
