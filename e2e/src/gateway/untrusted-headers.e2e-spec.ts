// What any client writes in its headers decides nothing beyond its own request: links the gateway hands out
// start with PUBLIC_BASE_URL whatever Host or X-Forwarded-Proto says, X-Forwarded-For picks no address for the
// per-address limits, and the request log never holds the tokens of one-time links or signed URLs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@vap/testing';
import { api, e2eEnv, OwnPlatform, rawRequest, startOwnPlatform } from '../../support';

const NAME = 'untrusted_headers';

describe('untrusted request headers', () => {
  let own: OwnPlatform;
  let baseUrl: string;
  let key: string;

  beforeAll(async () => {
    own = await startOwnPlatform({
      name: NAME,
      services: ['agents'],
      env: {
        // The agents service hands out upload URLs relative to the gateway, which makes them absolute.
        BLOB_SIGNED_URL_BASE: '/api/v2/uploads',
        RATE_LIMIT_ADDRESS_INVALID_KEY_PER_MINUTE: '3',
      },
      // The request log is written at info.
      appEnv: { gateway: { LOG_LEVEL: 'info' } },
    });
    baseUrl = own.platform.gatewayUrl;
    const partner = await api('/admin/v1/partners', {
      token: e2eEnv().adminToken,
      baseUrl,
      body: { name: 'Hostile Headers Co' },
    });
    key = partner.body.data.api_key;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
  });

  const documentBody = JSON.stringify({
    name: 'Manual',
    type: 'pdf',
    mime_type: 'application/pdf',
    file_size: 4,
  });
  const createDocument = async (headers: Record<string, string>) => {
    const answer = await rawRequest(baseUrl, {
      method: 'POST',
      path: '/api/v2/documents',
      headers: {
        ...headers,
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(documentBody)),
      },
      body: documentBody,
    });
    const body = JSON.parse(answer.body) as { data?: { upload_url?: string } };
    return { status: answer.status, uploadUrl: body.data?.upload_url ?? '' };
  };

  it('builds upload links on PUBLIC_BASE_URL, whatever Host and X-Forwarded-* a client sends', async () => {
    const hostile: Record<string, string>[] = [
      { host: 'evil.example' },
      { host: 'evil.example', 'x-forwarded-proto': 'gopher', 'x-forwarded-host': 'evil2.example' },
      { host: new URL(baseUrl).host, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil3.example' },
    ];
    for (const headers of hostile) {
      const created = await createDocument(headers);
      expect(created.status).toBe(200);
      expect(created.uploadUrl.startsWith(`${baseUrl}/api/v2/uploads/`)).toBe(true);
    }
  });

  it('counts requests without a valid key against the TCP peer, whatever X-Forwarded-For claims', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api('/agent', {
        key: 'rg_live_not-a-key',
        baseUrl,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  it('writes request paths with the tokens of signed URLs and one-time links, and token= values, redacted', async () => {
    const created = await api('/documents', {
      method: 'POST',
      key,
      baseUrl,
      body: { name: 'Manual', type: 'pdf', mime_type: 'application/pdf', file_size: 4 },
    });
    const uploadPath = new URL(created.body.data.upload_url as string).pathname;
    const uploadToken = uploadPath.split('/').pop()!;
    const put = await fetch(`${baseUrl}${uploadPath}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: Buffer.from('%PDF'),
    });
    expect(put.status).toBe(200);
    const inviteToken = 'invitation-secret-0123456789';
    const queryToken = 'query-secret-0123456789';
    await fetch(`${baseUrl}/console/api/invitations/${inviteToken}?token=${queryToken}`);

    const log = join(e2eEnv().logDir, NAME, 'gateway.log');
    const read = () => readFileSync(log, 'utf8');
    await waitFor(() => read().includes('/console/api/invitations/[redacted]'), { timeoutMs: 10_000 });
    const lines = read();
    expect(lines).toContain('/api/v2/uploads/[redacted]');
    expect(lines).toContain('token=[redacted]');
    expect(lines).not.toContain(uploadToken);
    expect(lines).not.toContain(inviteToken);
    expect(lines).not.toContain(queryToken);
  });
});
