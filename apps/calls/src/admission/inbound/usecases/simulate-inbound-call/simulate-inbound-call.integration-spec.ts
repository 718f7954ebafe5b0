// calls.sandbox.inbound_call as the gateway sends it for a partner to the running calls module: the sandbox
// carrier (a fake of its REST API) is asked to ring the partner's number, and, as the real one does, delivers its
// signed inbound webhook to the platform (the gateway's forward, calls.inbound_callback.ingest) before it answers.
// The answer is the decision that webhook produced. A number that is not the partner's asks no carrier.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../../testing/fake-sandbox-carrier';
import { saveInboundNumber } from '../../../../testing/inbound-numbers';
import { useCallsOnSandbox } from '../../../../testing/sandbox-calls';
import { inboundWebhook } from '../../../../testing/sandbox-webhooks';
import { answerAgents } from '../../../../testing/spec-partners';

describe('simulate an inbound call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();
  const delivered: string[] = [];

  const calls = useCallsOnSandbox(carrier);

  beforeAll(async () => {
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers);
    carrier.onSimulatedInbound = async ({ sid, from, to, voiceUrl }) => {
      const webhook = inboundWebhook(voiceUrl, {
        CallSid: sid,
        AccountSid: 'ACsandbox',
        From: from,
        To: to,
        Direction: 'inbound',
        CallStatus: 'ringing',
      });
      const reply = await calls.send('calls.inbound_callback.ingest', null, webhook);
      delivered.push(reply.body);
    };
  });

  const simulations = () => carrier.requests.filter((r) => r.path === '/SimulatedInboundCalls.json');

  it('rings the number through the sandbox carrier and answers the decision its webhook produced', async () => {
    const partnerId = randomUUID();
    const agentId = randomUUID();
    const { connectionId, phoneNumberId } = await saveInboundNumber(
      dataSource,
      partnerId,
      '+14155550401',
      agentId,
    );

    const decision = await calls.send('calls.sandbox.inbound_call', partnerId, {
      to_number: '+14155550401',
      from_number: '+919812345678',
    });

    const [asked] = simulations().slice(-1);
    expect(Object.fromEntries(asked.form)).toEqual({
      From: '+919812345678',
      To: '+14155550401',
      Url: `${calls.config.callbackBaseUrl}/callbacks/inbound/sandbox/${connectionId}/voice`,
    });
    expect(decision).toMatchObject({
      provider: 'sandbox',
      provider_call_id: asked.sid,
      phone_number_id: phoneNumberId,
      from_number: '+919812345678',
      to_number: '+14155550401',
      action: 'ANSWER_WITH_AI',
      source: 'no_policy',
      agent_id: agentId,
      call_id: expect.any(String),
    });
    expect(delivered.at(-1)).toContain('<Stream');
    const [call] = (await dataSource.query(
      `SELECT direction, status, provider_call_id FROM calls.calls WHERE id = $1`,
      [decision.call_id],
    )) as Record<string, unknown>[];
    expect(call).toEqual({ direction: 'inbound', status: 'in_progress', provider_call_id: asked.sid });
  });

  it('answers the reject decision for a number without an agent', async () => {
    const partnerId = randomUUID();
    await saveInboundNumber(dataSource, partnerId, '+14155550402', null);

    const decision = await calls.send('calls.sandbox.inbound_call', partnerId, {
      to_number: '+14155550402',
      from_number: '+919812345678',
    });

    expect(decision).toMatchObject({ action: 'REJECT', call_id: null, failure_reason: expect.any(String) });
    expect(delivered.at(-1)).toContain('<Reject');
  });

  it('refuses a number that is not the partner’s without asking the carrier', async () => {
    const owner = randomUUID();
    await saveInboundNumber(dataSource, owner, '+14155550403', randomUUID());
    const before = simulations().length;

    await expect(
      calls.send('calls.sandbox.inbound_call', randomUUID(), {
        to_number: '+14155550403',
        from_number: '+919812345678',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(simulations().length).toBe(before);
  });
});
