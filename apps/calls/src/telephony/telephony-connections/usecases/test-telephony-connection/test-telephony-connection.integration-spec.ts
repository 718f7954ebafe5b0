// Testing a telephony connection in the running calls module: the carrier is a fake of carrier_b's REST API
// (CARRIER_B_BASE_URL), outside the platform, answering the account read with the status a case sets. The
// sandbox is always ok; the carrier's answer gives ok or the failure's reason; no call is placed.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@vap/messages';
import { sendJson, startFakeServer, StartedFakeServer } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';

/** carrier_b's account resource: answers every read with `status` and records the paths asked. */
class FakeCarrierAccount {
  status = 200;
  readonly asked: string[] = [];
  private started?: StartedFakeServer;

  async listen(): Promise<string> {
    this.started = await startFakeServer({
      request: (req, res) => {
        this.asked.push(`${req.method} ${req.url}`);
        sendJson(res, this.status, { status: 'active' });
      },
    });
    return this.started.url;
  }

  async close(): Promise<void> {
    await this.started?.close();
  }
}

describe('test a telephony connection', () => {
  const carrier = new FakeCarrierAccount();
  const SID = 'ACtcn0000000000000000000000000000b1';

  const calls = useIntegrationApp(
    async () => startCalls({ env: { CARRIER_B_BASE_URL: await carrier.listen() } }),
    { afterStop: () => carrier.close() },
  );

  async function connectionsOf(partnerId: string) {
    await calls.send('calls.telephony.carrier_b_put', partnerId, {
      account_sid: SID,
      auth_token: 'tcn-carrier-b-token-0001',
      from_number: '+14155570001',
    });
    const { telephony_connections } = await calls.send(
      'calls.telephony_connection.list',
      partnerId,
      {} as never,
    );
    const of = (provider: string) => telephony_connections.find((c) => c.provider === provider)!;
    return { sandbox: of('sandbox'), carrierB: of('carrier_b') };
  }

  it('answers ok for the sandbox and for a carrier that accepts the credentials', async () => {
    const partnerId = randomUUID();
    const { sandbox, carrierB } = await connectionsOf(partnerId);
    await expect(
      calls.send('calls.telephony_connection.test', partnerId, { id: sandbox.id }),
    ).resolves.toMatchObject({
      id: sandbox.id,
      provider: 'sandbox',
      result: 'ok',
      latency_ms: 0,
    });

    carrier.status = 200;
    const before = carrier.asked.length;
    await expect(
      calls.send('calls.telephony_connection.test', partnerId, { id: carrierB.id }),
    ).resolves.toMatchObject({
      id: carrierB.id,
      provider: 'carrier_b',
      result: 'ok',
      reason: null,
      carrier_status: 200,
      message: 'carrier_b accepted the credentials (HTTP 200)',
    });
    expect(carrier.asked.slice(before)).toEqual([
      expect.stringMatching(new RegExp(`^GET .*/Accounts/${SID}`)),
    ]);
  });

  it('answers failed with the reason when the carrier refuses, and 404 for another partner', async () => {
    const partnerId = randomUUID();
    const { carrierB } = await connectionsOf(partnerId);
    carrier.status = 401;
    await expect(
      calls.send('calls.telephony_connection.test', partnerId, { id: carrierB.id }),
    ).resolves.toMatchObject({
      result: 'failed',
      reason: 'credentials_rejected',
      carrier_status: 401,
    });
    await expect(
      calls.send('calls.telephony_connection.test', randomUUID(), { id: carrierB.id }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });
});
