// The reseller's call-routing table read through the running calls module: the reseller is a fake of its REST
// API on this machine, outside the platform (private networks allowed, as in development). The records come
// back as the contract has them, read with the connection's key; a broken answer is a downstream error, and
// an account with several active connections must name one.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { sendJson, startFakeServer, StartedFakeServer } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

/** The downstream envelope: a 502 with the platform's internal error code. */
const DOWNSTREAM = {
  code: ErrorCode.INTERNAL_ERROR,
  status: 502,
  message: 'The reseller-link API failed or did not answer in time; retry',
};

const RECORD = {
  id: 1,
  did_id: 10,
  did_number: 919812500001,
  for_inbound_call: 1,
  for_outbound_call: 0,
  outbound_websocket_bot_id: 7,
  status: 1,
};

/** The reseller's GET /call-routing: answers `body` to the bearer of `key`, 401 to anyone else. */
class FakeReseller {
  key = '';
  body: unknown = { data: [] };
  private started?: StartedFakeServer;

  async listen(): Promise<string> {
    this.started = await startFakeServer({
      request: (req, res, url) => {
        const allowed =
          url.pathname === '/call-routing' && req.headers.authorization === `Bearer ${this.key}`;
        sendJson(res, allowed ? 200 : 401, allowed ? this.body : {});
      },
    });
    return this.started.url;
  }

  async close(): Promise<void> {
    await this.started?.close();
  }
}

describe('get the reseller call routing', () => {
  let resellerUrl: string;
  const reseller = new FakeReseller();
  const allowedBefore = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;

  const calls = useIntegrationApp(
    async () => {
      resellerUrl = await reseller.listen();
      // The fake reseller listens on loopback, which the egress guard refuses unless private networks are allowed.
      process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
      return startCalls();
    },
    {
      afterStop: async () => {
        await reseller.close();
        if (allowedBefore === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
        else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = allowedBefore;
      },
    },
  );

  const connect = (partnerId: string, apiKey: string) =>
    calls.send('calls.reseller_link.connection_create', partnerId, {
      api_base_url: resellerUrl,
      api_key: apiKey,
    });

  it("answers the reseller's records, read with the connection's key", async () => {
    const partnerId = randomUUID();
    reseller.key = 'routing-key-000000000001';
    reseller.body = { data: [RECORD] };
    await connect(partnerId, reseller.key);

    await expect(calls.send('calls.reseller_link.call_routing', partnerId, {})).resolves.toEqual({
      data: [{ ...RECORD, did_number: '919812500001' }],
    });
  });

  it('fails downstream on a broken answer or a refused key, and needs a connection named among several', async () => {
    const partnerId = randomUUID();
    reseller.key = 'routing-key-000000000002';
    const one = await connect(partnerId, reseller.key);
    reseller.body = { data: [{ ...RECORD, status: 'on' }] };
    await expect(calls.send('calls.reseller_link.call_routing', partnerId, {})).rejects.toMatchObject(
      DOWNSTREAM,
    );

    const two = await connect(partnerId, 'routing-key-refused-0003');
    await expect(calls.send('calls.reseller_link.call_routing', partnerId, {})).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: expect.stringContaining('connection_id is required'),
    });
    await expect(
      calls.send('calls.reseller_link.call_routing', partnerId, { connection_id: two.id }),
    ).rejects.toMatchObject(DOWNSTREAM);
    reseller.body = { data: [RECORD] };
    await expect(
      calls.send('calls.reseller_link.call_routing', partnerId, { connection_id: one.id }),
    ).resolves.toMatchObject({ data: [expect.objectContaining({ id: 1 })] });
    await expect(
      calls.send('calls.reseller_link.call_routing', randomUUID(), { connection_id: one.id }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });
});
