// The generated SDK (@vap/sdk) against the real platform: the document it is generated from is the one the
// gateway serves, and its typed requests, pagers, idempotency keys, errors and webhook verifier work end to end.
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { isValidWebhook, VapApiError, VapClient, verifyWebhook, WebhookVerificationError } from '@vap/sdk';
import { waitFor } from '@vap/testing';
import { e2eEnv } from '../../support';
import { callee } from '../calls/call-fixtures';
import { WebhookReceiver } from '../webhooks/webhook-receiver';

/** Catalog voice seeded by the agents service (standard tier). */
const VOICE_ID = '72158370-d269-49a5-ae65-8f33fe3b890b';

const agentBody = (name = `SDK ${randomBytes(4).toString('hex')}`) => ({
  agent_name: name,
  prompt: 'You are Maya from Acme Health. You help patients book appointments.',
  voice_id: VOICE_ID,
  agent_type: 'outbound' as const,
});

/** A partner of its own, created through the SDK's operator routes, and an SDK signed in with its key. */
async function partnerSdk(): Promise<{ sdk: VapClient; partnerId: string }> {
  const operator = new VapClient({ baseUrl: e2eEnv().gatewayUrl, adminToken: e2eEnv().adminToken });
  const { data } = await operator.admin.create({
    body: { name: `sdk partner ${randomBytes(4).toString('hex')}`, balance_inr: 500 },
  });
  return {
    sdk: new VapClient({ baseUrl: e2eEnv().gatewayUrl, apiKey: data.data.api_key }),
    partnerId: data.data.partner.id,
  };
}

describe('@vap/sdk against the platform', () => {
  let sdk: VapClient;

  beforeAll(async () => {
    ({ sdk } = await partnerSdk());
  });

  it('is generated from the document the gateway serves', async () => {
    // The generator builds the document from the built gateway without running it; it must be the served one.
    const generator = join(__dirname, '../../../libs/sdk/scripts/openapi-document.cjs');
    const { buildOpenApiDocument } = (await import(generator)) as {
      buildOpenApiDocument: () => Promise<unknown>;
    };
    const served = await (await fetch(`${e2eEnv().gatewayUrl}/api/v2/openapi.json`)).json();
    expect(JSON.parse(JSON.stringify(await buildOpenApiDocument()))).toEqual(served);
  });

  it('creates an agent and reads it back, typed', async () => {
    const body = agentBody();
    const { data: created } = await sdk.agents.create({ body });
    expect(created.success).toBe(true);
    expect(created.data).toMatchObject({
      agent_name: body.agent_name,
      agent_type: 'outbound',
      voice_id: VOICE_ID,
    });
    const { data: read } = await sdk.agents.get({ path: { id: created.data.id } });
    expect(read.data.id).toBe(created.data.id);
    expect(read.data.prompt).toBe(body.prompt);
  });

  it('lists every agent across several pages with the async iterator', async () => {
    const { sdk: own } = await partnerSdk();
    const names = Array.from({ length: 5 }, (_, i) => `Paged ${i} ${randomBytes(3).toString('hex')}`);
    const ids: string[] = [];
    for (const name of names) ids.push((await own.agents.create({ body: agentBody(name) })).data.data.id);

    const seen: string[] = [];
    for await (const agent of own.paginate((o) => own.agents.list(o), { query: { limit: 2 } }))
      seen.push(agent.id);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(5);

    const pageSizes: number[] = [];
    for await (const page of own.pages((o) => own.agents.list(o), { query: { limit: 2 } }))
      pageSizes.push(page.agents.length);
    expect(pageSizes).toEqual([2, 2, 1]);
  });

  it('starts a sandbox call once for one Idempotency-Key, sent twice', async () => {
    const agent = (await sdk.agents.create({ body: agentBody() })).data.data;
    const body = { agent_id: agent.id, to_number: callee('01'), client_reference_id: `sdk-${randomUUID()}` };
    const key = `sdk-key-${randomUUID()}`;
    const first = await sdk.calls.start({ body, headers: { 'Idempotency-Key': key } });
    const again = await sdk.calls.start({ body, headers: { 'Idempotency-Key': key } });
    expect(first.response.headers.get('idempotency-replayed')).toBeNull();
    expect(again.response.headers.get('idempotency-replayed')).toBe('true');
    expect(again.data.data.call_id).toBe(first.data.data.call_id);
    const listed = await sdk.calls.list({ query: { client_reference_id: body.client_reference_id } });
    expect(listed.data.data.calls).toHaveLength(1);
  });

  it('gives a call start its own Idempotency-Key when none is given, which a resend can reuse', async () => {
    const agent = (await sdk.agents.create({ body: agentBody() })).data.data;
    const body = { agent_id: agent.id, to_number: callee('01') };
    const first = await sdk.calls.start({ body });
    const generated = first.request.headers.get('idempotency-key');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const again = await sdk.calls.start({ body, headers: { 'Idempotency-Key': generated! } });
    expect(again.data.data.call_id).toBe(first.data.data.call_id);
    expect(again.response.headers.get('idempotency-replayed')).toBe('true');
  });

  it('throws typed errors: 404 NOT_FOUND with the request id, 400 VALIDATION_ERROR with details', async () => {
    const requestId = `sdk-${randomBytes(6).toString('hex')}`;
    const missing = await sdk.agents
      .get({ path: { id: randomUUID() }, headers: { 'X-Request-Id': requestId } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(VapApiError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId });

    const invalid = (await sdk.agents
      .create({ body: { ...agentBody(), agent_type: 'sideways' as never, voice_id: 'no' } })
      .catch((e: unknown) => e)) as VapApiError;
    expect(invalid).toBeInstanceOf(VapApiError);
    expect(invalid.status).toBe(400);
    expect(invalid.code).toBe('VALIDATION_ERROR');
    expect(invalid.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['agent_type', 'voice_id']));
    expect(invalid.requestId).toEqual(expect.any(String));
  });

  describe('webhooks', () => {
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it('verifies a real delivery with the SDK, through a secret rotation', async () => {
      const { sdk: own } = await partnerSdk();
      const endpoint = (
        await own.webhookEndpoints.create({
          body: { label: `sdk-${randomBytes(4).toString('hex')}`, url: receiver.at('sdk-rotation') },
        })
      ).data.data;
      const delivered = async (n: number) => {
        await own.webhookEndpoints.test({ path: { id: endpoint.id } });
        return (await receiver.waitFor(n, (r) => r.path === '/sdk-rotation'))[n - 1];
      };

      const first = await delivered(1);
      const verified = verifyWebhook(first.rawBody, first.headers, { secrets: endpoint.secret });
      expect(verified.event).toBe('webhook.test');
      expect(verified.payload).toEqual(first.json);
      expect(verified.id).toEqual(expect.any(String));
      expect(() => verifyWebhook(first.rawBody, first.headers, { secrets: 'whsec_wrong' })).toThrow(
        WebhookVerificationError,
      );
      // The raw body is what is signed: the same JSON re-serialised does not verify.
      expect(
        isValidWebhook(JSON.stringify(first.json, null, 1), first.headers, { secrets: endpoint.secret }),
      ).toBe(false);

      const rotated = (await own.webhookEndpoints.rotate({ path: { id: endpoint.id } })).data.data;
      const during = await delivered(2);
      // A receiver still on the old secret, one already on the new one, and one holding both all accept it.
      expect(isValidWebhook(during.rawBody, during.headers, { secrets: [endpoint.secret] })).toBe(true);
      expect(isValidWebhook(during.rawBody, during.headers, { secrets: [rotated.secret] })).toBe(true);
      expect(
        isValidWebhook(during.rawBody, during.headers, { secrets: [rotated.secret, endpoint.secret] }),
      ).toBe(true);
    }, 30_000);

    it('verifies the call.status.updated deliveries of a sandbox call', async () => {
      const { sdk: own } = await partnerSdk();
      const endpoint = (
        await own.webhookEndpoints.create({
          body: {
            label: `sdk-${randomBytes(4).toString('hex')}`,
            url: receiver.at('sdk-calls'),
            events: ['call.status.updated'],
          },
        })
      ).data.data;
      const agent = (await own.agents.create({ body: agentBody() })).data.data;
      const call = (await own.calls.start({ body: { agent_id: agent.id, to_number: callee('01') } })).data
        .data;
      const terminal = await waitFor(
        () =>
          receiver
            .on('sdk-calls')
            .find((r) => r.json?.data?.call_id === call.call_id && r.json?.data?.terminal === true),
        { timeoutMs: 30_000, description: `the terminal call.status.updated of ${call.call_id}` },
      );
      const verified = verifyWebhook<{ event: string; data: { call_id: string; status: string } }>(
        terminal.rawBody,
        terminal.headers,
        { secrets: endpoint.secret },
      );
      expect(verified.payload.event).toBe('call.status.updated');
      expect(verified.payload.data).toMatchObject({ call_id: call.call_id, status: 'no_answer' });
    }, 45_000);
  });
});
