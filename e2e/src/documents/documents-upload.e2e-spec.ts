// Documents: the presigned-style upload flow with real PDF bytes, confirm, limits, signed URLs, CRUD and tenancy.
import { randomUUID } from 'node:crypto';
import { api, createPartner, gatewayUrl } from '../../support';
import { partnerKey, pdfWithPages, putFile, runSigner, uniqueName, uploadDocument } from './kb-fixtures';

const MAX_BYTES = 20 * 1024 * 1024;

describe('documents: upload flow', () => {
  let key: string;
  let pdf: Buffer;

  beforeAll(async () => {
    key = await partnerKey();
    pdf = await pdfWithPages([['Upload flow test document.', 'It has a second line of text.']]);
  });

  const create = (body: Record<string, unknown>, k = key) =>
    api('/documents', { method: 'POST', key: k, body });
  const pdfBody = (overrides: Record<string, unknown> = {}) => ({
    name: uniqueName('Manual'),
    description: 'Product manual',
    type: 'pdf',
    mime_type: 'application/pdf',
    file_size: pdf.length,
    ...overrides,
  });

  it('creates the document in status uploading with an expiring signed upload URL on the gateway', async () => {
    const before = Date.now();
    const res = await create(pdfBody());
    expect(res.status).toBe(200);
    const doc = res.body.data;
    expect(doc).toMatchObject({
      type: 'pdf',
      status: 'uploading',
      description: 'Product manual',
      file_size: pdf.length,
      mime_type: 'application/pdf',
      url: null,
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'application/pdf' },
    });
    expect(doc.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.upload_url.startsWith(`${gatewayUrl()}/api/v2/uploads/`)).toBe(true);
    const expires = Date.parse(doc.upload_expires_at);
    expect(expires).toBeGreaterThan(before + 14 * 60_000);
    expect(expires).toBeLessThan(Date.now() + 16 * 60_000);
  });

  it('takes the real bytes at the signed URL without an API key, then confirms to ready', async () => {
    const doc = (await create(pdfBody())).body.data;
    const put = await putFile(doc.upload_url, pdf, doc.upload_headers);
    expect(put).toEqual({
      status: 200,
      body: { success: true, data: { size: pdf.length, content_type: 'application/pdf' } },
    });
    const confirmed = await api(`/documents/${doc.id}/confirm`, { method: 'POST', key });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ id: doc.id, status: 'ready', file_size: pdf.length });
    expect(confirmed.body.data.upload_url).toBeUndefined();
    const got = await api(`/documents/${doc.id}`, { key });
    expect(got.body.data.status).toBe('ready');
  });

  it('answers 400 when the file was not uploaded, 409 when already confirmed, 404 when unknown', async () => {
    const doc = (await create(pdfBody())).body.data;
    const early = await api(`/documents/${doc.id}/confirm`, { method: 'POST', key });
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe('VALIDATION_ERROR');
    expect(early.body.error.message).toMatch(/not been uploaded/);

    await putFile(doc.upload_url, pdf, doc.upload_headers);
    expect((await api(`/documents/${doc.id}/confirm`, { method: 'POST', key })).status).toBe(200);
    const twice = await api(`/documents/${doc.id}/confirm`, { method: 'POST', key });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('CONFLICT');

    for (const id of [randomUUID(), 'not-a-uuid']) {
      const unknown = await api(`/documents/${id}/confirm`, { method: 'POST', key });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
    }
  });

  it.each([
    ['file_size', { file_size: MAX_BYTES + 1 }, /at most 20971520 bytes/],
    ['file_size', { file_size: 0 }, /at least 1 byte/],
    ['file_size', { file_size: 10.5 }, /integer/],
    ['type', { type: 'docx', mime_type: 'application/msword' }, /type must be one of pdf, txt, md, html/],
    ['type', { type: 'web_link' }, /type must be one of/],
    ['mime_type', { mime_type: 'text/html' }, /mime_type must be application\/pdf for type pdf/],
    ['name', { name: '' }, /name must be 1 to 200/],
    ['name', { name: undefined }, /name/],
    ['description', { description: 'x'.repeat(2001) }, /description must be at most 2000/],
  ])('refuses a bad %s with 400 VALIDATION_ERROR naming it', async (field, overrides, message) => {
    const res = await create(pdfBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(res.body.error.message).toMatch(message);
  });

  it('accepts the other indexable types with their media types', async () => {
    for (const [type, mime] of [
      ['txt', 'text/plain'],
      ['md', 'text/markdown'],
      ['html', 'text/html'],
    ]) {
      const res = await create(pdfBody({ type, mime_type: mime }));
      expect(res.status).toBe(200);
      expect(res.body.data.upload_headers).toEqual({ 'Content-Type': mime });
    }
  });
});

describe('documents: the signed upload URL', () => {
  let key: string;
  let pdf: Buffer;

  beforeAll(async () => {
    key = await partnerKey();
    pdf = await pdfWithPages([['Signed URL test.']]);
  });

  const newUpload = async () =>
    (
      await api('/documents', {
        method: 'POST',
        key,
        body: {
          name: uniqueName('Signed'),
          type: 'pdf',
          mime_type: 'application/pdf',
          file_size: pdf.length,
        },
      })
    ).body.data;

  function tamper(url: string): string {
    // Flip one character of the signature.
    const last = url.at(-2) === 'A' ? 'B' : 'A';
    return `${url.slice(0, -2)}${last}${url.at(-1)}`;
  }

  it('answers 403 FORBIDDEN for a bad signature, a malformed token and another method', async () => {
    const doc = await newUpload();
    const bad = await putFile(tamper(doc.upload_url), pdf, doc.upload_headers);
    expect(bad.status).toBe(403);
    expect(bad.body.error.code).toBe('FORBIDDEN');
    expect(bad.body.error.message).toMatch(/signature/);
    const malformed = await putFile(`${gatewayUrl()}/api/v2/uploads/not-a-token`, pdf, doc.upload_headers);
    expect(malformed.status).toBe(403);
    const asDownload = await fetch(doc.upload_url);
    expect(asDownload.status).toBe(403);
    // Nothing was stored by the refused requests.
    expect((await api(`/documents/${doc.id}/confirm`, { method: 'POST', key })).status).toBe(400);
  });

  it('answers 403 FORBIDDEN once the URL has expired', async () => {
    const doc = await newUpload();
    const token = doc.upload_url.split('/').pop();
    const grant = runSigner().verify(token, 'PUT');
    if (!grant.ok) throw new Error(`the run's signer does not accept the gateway's token: ${grant.reason}`);
    const expired = runSigner().sign({ ...grant.grant, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const res = await putFile(`${gatewayUrl()}/api/v2/uploads/${expired}`, pdf, doc.upload_headers);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/expired/) });
  });

  it('enforces the declared size (413 above, 400 below) and the signed content type (415)', async () => {
    const doc = await newUpload();
    const larger = await putFile(
      doc.upload_url,
      Buffer.concat([pdf, Buffer.from('extra')]),
      doc.upload_headers,
    );
    expect(larger.status).toBe(413);
    expect(larger.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const smaller = await putFile(doc.upload_url, pdf.subarray(0, pdf.length - 10), doc.upload_headers);
    expect(smaller.status).toBe(400);
    expect(smaller.body.error.code).toBe('VALIDATION_ERROR');
    const wrongType = await putFile(doc.upload_url, pdf, { 'Content-Type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await api(`/documents/${doc.id}/confirm`, { method: 'POST', key })).status).toBe(400);
    // The right request still works, with a charset parameter too.
    const ok = await putFile(doc.upload_url, pdf, { 'Content-Type': 'application/pdf; charset=binary' });
    expect(ok.status).toBe(200);
    expect((await api(`/documents/${doc.id}/confirm`, { method: 'POST', key })).status).toBe(200);
  });

  it('serves signed downloads of the stored bytes', async () => {
    const { partner, apiKey } = await createPartner();
    const doc = await uploadDocument(apiKey, pdf);
    const token = runSigner().sign({
      method: 'GET',
      key: `documents/${partner.id}/${doc.id}`,
      expiresAt: Math.floor(Date.now() / 1000) + 60,
      fileName: 'manual.pdf',
    });
    const url = `${gatewayUrl()}/api/v2/uploads/${token}`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('manual.pdf');
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    // A download grant is no upload grant.
    expect((await putFile(url, pdf, { 'Content-Type': 'application/pdf' })).status).toBe(403);
  });

  it('still refuses non-JSON bodies on the other routes', async () => {
    const res = await api('/documents', {
      method: 'POST',
      key,
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });
});

describe('documents: web links, reading, listing, deleting, tenancy', () => {
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    [key, otherKey] = await Promise.all([partnerKey(), partnerKey()]);
  });

  it('creates a web link ready at once', async () => {
    const res = await api('/documents/web-link', {
      method: 'POST',
      key,
      body: { name: 'Pricing', url: 'https://example.com/pricing', description: 'Plans' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Pricing',
      description: 'Plans',
      type: 'web_link',
      status: 'ready',
      url: 'https://example.com/pricing',
      file_size: 0,
      mime_type: 'text/html',
    });
    expect(res.body.data.upload_url).toBeUndefined();
  });

  it.each([
    ['url', { name: 'x', url: 'ftp://example.com/a' }],
    ['url', { name: 'x', url: 'javascript:alert(1)' }],
    ['url', { name: 'x', url: 'not a url' }],
    ['url', { name: 'x' }],
    ['name', { url: 'https://example.com' }],
    ['description', { name: 'x', url: 'https://example.com', description: 5 }],
  ])('refuses a web link with a bad %s', async (field, body) => {
    const res = await api('/documents/web-link', { method: 'POST', key, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('lists with cursor pagination and filters', async () => {
    const k = await partnerKey();
    const pdf = await pdfWithPages([['Listing.']]);
    const a = await uploadDocument(k, pdf, { name: 'Alpha guide' });
    const b = (
      await api('/documents/web-link', {
        method: 'POST',
        key: k,
        body: { name: 'Beta page', url: 'https://example.com/b' },
      })
    ).body.data;
    const c = (
      await api('/documents', {
        method: 'POST',
        key: k,
        body: { name: 'Gamma notes', type: 'txt', mime_type: 'text/plain', file_size: 10 },
      })
    ).body.data;

    const page1 = await api('/documents?limit=2', { key: k });
    expect(page1.status).toBe(200);
    expect(page1.body.data.documents.map((d: { id: string }) => d.id)).toEqual([a.id, b.id]);
    const page2 = await api(`/documents?limit=2&cursor=${page1.body.data.next_cursor}`, { key: k });
    expect(page2.body.data.documents.map((d: { id: string }) => d.id)).toEqual([c.id]);
    expect(page2.body.data.next_cursor).toBeNull();

    const ids = async (q: string) =>
      (await api(`/documents?${q}`, { key: k })).body.data.documents.map((d: { id: string }) => d.id);
    expect(await ids('status=uploading')).toEqual([c.id]);
    expect(await ids('type=web_link')).toEqual([b.id]);
    expect(await ids('search=GUIDE')).toEqual([a.id]);
    expect(await ids('search=%25')).toEqual([]);
    expect((await api('/documents?status=done', { key: k })).status).toBe(400);
    expect((await api('/documents?cursor=garbage', { key: k })).status).toBe(400);
  });

  it("answers 404 for another partner's document on every route", async () => {
    const doc = await uploadDocument(key, await pdfWithPages([['Tenancy.']]));
    const pending = (
      await api('/documents', {
        method: 'POST',
        key,
        body: { name: 'P', type: 'txt', mime_type: 'text/plain', file_size: 3 },
      })
    ).body.data;
    expect((await api(`/documents/${doc.id}`, { key: otherKey })).status).toBe(404);
    expect((await api(`/documents/${pending.id}/confirm`, { method: 'POST', key: otherKey })).status).toBe(
      404,
    );
    expect((await api(`/documents/${doc.id}`, { method: 'DELETE', key: otherKey })).status).toBe(404);
    const list = await api('/documents', { key: otherKey });
    expect(list.body.data.documents.map((d: { id: string }) => d.id)).not.toContain(doc.id);
    expect((await api(`/documents/${doc.id}`, { key })).status).toBe(200);
  });

  it('deletes a document: gone for every route afterwards', async () => {
    const doc = await uploadDocument(key, await pdfWithPages([['Delete me.']]));
    const del = await api(`/documents/${doc.id}`, { method: 'DELETE', key });
    expect(del.status).toBe(200);
    expect(typeof del.body.data.message).toBe('string');
    expect((await api(`/documents/${doc.id}`, { key })).status).toBe(404);
    expect((await api(`/documents/${doc.id}`, { method: 'DELETE', key })).status).toBe(404);
    expect((await api(`/documents/${doc.id}/confirm`, { method: 'POST', key })).status).toBe(404);
  });
});
