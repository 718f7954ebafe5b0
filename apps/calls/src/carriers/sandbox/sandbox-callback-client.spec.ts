import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DEV_SECRETS_KEY } from '@vap/secrets';
import { CallsConfig } from '../../config/calls.config';
import { TelephonyConfig } from '../../config/telephony.config';
import { SandboxCallbackClient } from './sandbox-callback-client';
import { verifySandboxCallback } from './sandbox-signature';
import { SandboxSigningKey } from './sandbox-signing-key';

describe('SandboxCallbackClient', () => {
  let server: Server;
  let local: string;
  const received: { path: string; headers: Record<string, string>; body: Buffer }[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    received.length = 0;
  });

  function client(settings: Partial<CallsConfig>): { client: SandboxCallbackClient; key: Buffer } {
    const config = Object.assign(new CallsConfig(), settings);
    const telephony = Object.assign(new TelephonyConfig(), { SECRETS_KEY: DEV_SECRETS_KEY });
    const key = new SandboxSigningKey(config, telephony);
    return { client: new SandboxCallbackClient(key, config), key: key.value };
  }

  it('posts to SANDBOX_CALLBACK_URL, signed for the public callback URL, when the public one does not route here', async () => {
    const { client: sandbox, key } = client({
      PUBLIC_BASE_URL: 'https://api.example.test/',
      SANDBOX_CALLBACK_URL: `${local}/`,
    });
    const url = 'https://api.example.test/callbacks/sandbox/call-1/status';
    await sandbox.post(url, { CallStatus: 'ringing' });
    expect(received).toHaveLength(1);
    const [callback] = received;
    expect(callback.path).toBe('/callbacks/sandbox/call-1/status');
    // The gateway checks the signature against its callback base plus the path, as for a real carrier.
    expect(verifySandboxCallback(key, callback.headers, url, callback.body)).toBe(true);
    expect(verifySandboxCallback(key, callback.headers, `${local}${callback.path}`, callback.body)).toBe(
      false,
    );
  });

  it('posts to the callback URL itself when SANDBOX_CALLBACK_URL is not set', async () => {
    const { client: sandbox, key } = client({ PUBLIC_BASE_URL: local });
    const url = `${local}/callbacks/sandbox/call-2/status`;
    await sandbox.post(url, { CallStatus: 'completed' });
    expect(received.map((r) => r.path)).toEqual(['/callbacks/sandbox/call-2/status']);
    expect(verifySandboxCallback(key, received[0].headers, url, received[0].body)).toBe(true);
  });
});
