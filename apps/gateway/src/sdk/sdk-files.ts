import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the gateway's build puts the browser client (libs/web-client), beside the compiled app. */
export const SDK_DIR = join(__dirname, '..', '..', '..', '..', 'sdk');

export interface SdkFile {
  body: Buffer;
  contentType: string;
  etag: string;
}

const FILES: Record<string, string> = {
  'voice-client.js': 'text/javascript; charset=utf-8',
  'voice-client.d.ts': 'application/typescript; charset=utf-8',
  // The one-tag widget: a classic script, <script src=".../sdk/widget.js" data-agent-id data-public-key>.
  'widget.js': 'text/javascript; charset=utf-8',
};

/** The browser client's files, read once from the build output (undefined when it was not built). */
export class SdkFiles {
  private readonly files = new Map<string, SdkFile | null>();

  constructor(private readonly dir: string = SDK_DIR) {}

  get(name: string): SdkFile | undefined {
    const contentType = FILES[name];
    if (!contentType) return undefined;
    if (!this.files.has(name)) {
      let file: SdkFile | null = null;
      try {
        const body = readFileSync(join(this.dir, name));
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        file = { body, contentType, etag };
      } catch {
        file = null;
      }
      this.files.set(name, file);
    }
    return this.files.get(name) ?? undefined;
  }
}
