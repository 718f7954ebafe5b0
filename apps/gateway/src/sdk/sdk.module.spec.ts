import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PAGE_CSP, DEMO_PAGE_HTML } from '@vap/web-client';
import { DemoController } from './demo.controller';
import { SdkController } from './sdk.controller';
import { SdkFiles } from './sdk-files';
import { SdkModule } from './sdk.module';

describe('SdkModule', () => {
  it('serves the demo page in development only', () => {
    expect(SdkModule.forRoot('development').controllers).toEqual([SdkController, DemoController]);
    for (const env of ['production', 'test', '', 'Development']) {
      expect(SdkModule.forRoot(env).controllers).toEqual([SdkController]);
    }
  });
});

describe('SdkFiles', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-'));
    writeFileSync(join(dir, 'voice-client.js'), 'export class VoiceClient {}\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the built files with their content type and a content hash as ETag', () => {
    const files = new SdkFiles(dir);
    const js = files.get('voice-client.js')!;
    expect(js.body.toString()).toBe('export class VoiceClient {}\n');
    expect(js.contentType).toBe('text/javascript; charset=utf-8');
    expect(js.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('knows nothing but its two files, and a file not built is absent', () => {
    const files = new SdkFiles(dir);
    expect(files.get('voice-client.d.ts')).toBeUndefined();
    expect(files.get('../package.json')).toBeUndefined();
    expect(files.get('index.html')).toBeUndefined();
  });
});

describe('the demo page', () => {
  it('allows exactly its own inline script and style in its Content-Security-Policy', () => {
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(DEMO_PAGE_HTML)![1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(DEMO_PAGE_HTML)![1];
    expect(DEMO_PAGE_CSP).toContain(`script-src 'self' ${hash(script)} blob:`);
    expect(DEMO_PAGE_CSP).toContain(`style-src ${hash(style)}`);
  });

  it('labels its controls and says the API key stays in the page', () => {
    for (const id of ['key', 'agent']) expect(DEMO_PAGE_HTML).toContain(`<label for="${id}">`);
    expect(DEMO_PAGE_HTML).toContain('role="status"');
    expect(DEMO_PAGE_HTML).toMatch(/production page must never hold an API key/);
  });
});
