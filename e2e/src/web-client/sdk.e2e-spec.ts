/** The gateway serves the built browser client at /sdk; the demo page exists in development only. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from '@vap/testing';
import { e2eEnv } from '../../support';

describe('GET /sdk (the browser client)', () => {
  const gateway = () => e2eEnv().gatewayUrl;
  const built = (file: string) =>
    readFileSync(join(workspaceRoot(), 'dist', 'libs', 'web-client', file), 'utf8');

  it('answers the ES module with its content type, cache headers and CORS for other origins', async () => {
    const res = await fetch(`${gateway()}/sdk/voice-client.js`, {
      headers: { Origin: 'https://shop.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await res.text();
    expect(body).toBe(built('voice-client.js'));
    expect(body).toContain('export class VoiceClient');
    expect(body).not.toMatch(/^\s*import[\s{(]/m);

    const again = await fetch(`${gateway()}/sdk/voice-client.js`, {
      headers: { 'If-None-Match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('answers the type declarations', async () => {
    const res = await fetch(`${gateway()}/sdk/voice-client.d.ts`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/typescript; charset=utf-8');
    expect(await res.text()).toBe(built('voice-client.d.ts'));
  });

  it('answers 404 in the envelope for any other file, and for the demo page outside development', async () => {
    for (const path of ['/sdk/other.js', '/sdk/..%2Fmain.js', '/demo/voice']) {
      const res = await fetch(`${gateway()}${path}`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as { success: boolean; error: { code: string } };
      expect(body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });
});
