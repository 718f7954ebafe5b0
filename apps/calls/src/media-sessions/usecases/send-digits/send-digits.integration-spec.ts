// calls.voice.send_dtmf as the voice service sends it (the agent's send_dtmf tool) to the running calls module:
// carrier_a takes the keys through its REST API (a fake of it, outside the platform); an agent without the tool is
// refused; an ended call, a carrier without the request and a carrier that no longer knows the call answer false.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AgentSnapshot, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { Call } from '../../../calls/entities/call.entity';
import { ConnectionCredentials } from '../../../telephony/connections/entities/connection-credentials.entity';
import { CredentialsStore } from '../../../telephony/connections/credentials-store.service';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { saveAgentSettings, saveSandboxCall, startCallsOnSandbox } from '../../../testing/sandbox-calls';

describe('send digits', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();
  const carrierA = new FakeSandboxCarrier();

  const calls = useIntegrationApp(
    async () => startCallsOnSandbox(carrier, { env: { CARRIER_A_BASE_URL: await carrierA.listen() } }),
    {
      afterStop: async () => {
        await carrier.close();
        await carrierA.close();
      },
    },
  );

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  /** The agent's settings as copied at the call's start, with or without the tool. */
  const agentWith = (call: Call, sendDtmfEnabled: boolean): AgentSnapshot => ({
    ...call.agentSettings,
    sendDtmfEnabled,
  });

  /** A carrier_a call in progress on a connection whose credentials are sealed as the service keeps them. */
  async function carrierACall(status: Call['status'] = 'in_progress'): Promise<Call> {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_a');
    const sealed = calls
      .get(CredentialsStore)
      .seal(connectionId, { auth_id: 'MAFAKEAUTHID', auth_token: 'carrier-a-token' });
    await dataSource
      .getRepository(ConnectionCredentials)
      .insert({ connectionId, partnerId, accountIdMasked: 'MA…ID', sealed });
    const call = await saveCall(dataSource, { partnerId, connectionId, provider: 'carrier_a', status });
    await saveAgentSettings(dataSource, call.id, agentWith(call, true));
    return call;
  }

  it('has carrier_a play the keys on the answered leg', async () => {
    const call = await carrierACall();

    expect(await calls.send('calls.voice.send_dtmf', null, { callId: call.id, digits: '12w#' })).toEqual({
      sent: true,
    });

    const pressed = carrierA.requests.filter((r) => r.path === `/Call/${call.providerCallId}/DTMF/`);
    expect(pressed.map((r) => [r.method, JSON.parse(r.body)])).toEqual([
      ['POST', { digits: '12w#', leg: 'aleg' }],
    ]);
  });

  it('answers false for an ended call and a carrier that no longer knows the call', async () => {
    const ended = await carrierACall('completed');
    const gone = await carrierACall();
    carrierA.gone.add(gone.providerCallId!);
    const before = carrierA.requests.length;

    expect(await calls.send('calls.voice.send_dtmf', null, { callId: ended.id, digits: '1' })).toEqual({
      sent: false,
    });
    expect(await calls.send('calls.voice.send_dtmf', null, { callId: gone.id, digits: '1' })).toEqual({
      sent: false,
    });
    // Only the gone call's request reached the carrier.
    expect(carrierA.requests.slice(before).map((r) => r.path)).toEqual([
      `/Call/${gone.providerCallId}/DTMF/`,
    ]);
  });

  it('answers false on a carrier without the request (the sandbox line)', async () => {
    const call = await saveSandboxCall(dataSource);
    await saveAgentSettings(dataSource, call.id, agentWith(call, true));

    expect(await calls.send('calls.voice.send_dtmf', null, { callId: call.id, digits: '5' })).toEqual({
      sent: false,
    });
    expect(carrier.onCall(call.providerCallId!)).toEqual([]);
  });

  it('refuses an agent without the tool, keys outside the set, and another partner’s call', async () => {
    const call = await carrierACall();
    await saveAgentSettings(dataSource, call.id, agentWith(call, false));
    const before = carrierA.requests.length;

    await expect(
      calls.send('calls.voice.send_dtmf', null, { callId: call.id, digits: '1' }),
    ).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(
      calls.send('calls.voice.send_dtmf', null, { callId: call.id, digits: '1x' }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.voice.send_dtmf', randomUUID(), { callId: call.id, digits: '1' }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(carrierA.requests.length).toBe(before);
  });
});
