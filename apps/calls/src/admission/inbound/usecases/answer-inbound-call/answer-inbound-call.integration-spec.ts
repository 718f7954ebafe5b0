// A carrier's inbound-call webhook as the gateway forwards it to the running calls module
// (calls.inbound_callback.ingest): the sandbox carrier's signed form for a partner's number. With no routing
// policy, a number with an agent is answered with AI: the call is opened with the agent the agents service (a
// fake peer) answers, answered through call progress and published, and the carrier gets the markup that streams
// it to the voice service; a repeated webhook gets the same call. A number without an agent is rejected, and an
// unsigned webhook or an unknown connection is refused with nothing stored.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallStatusUpdatedData, DomainEvents, ErrorCode } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../../testing/fake-sandbox-carrier';
import { saveInboundNumber } from '../../../../testing/inbound-numbers';
import { useCallsOnSandbox } from '../../../../testing/sandbox-calls';
import { inboundWebhook } from '../../../../testing/sandbox-webhooks';
import { answerAgents } from '../../../../testing/spec-partners';

describe('answer an inbound call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers);
  });

  const voiceUrl = (connectionId: string) =>
    `${calls.config.callbackBaseUrl}/callbacks/inbound/sandbox/${connectionId}/voice`;

  const ringing = (sid: string, from: string, to: string) => ({
    CallSid: sid,
    AccountSid: 'ACsandbox',
    From: from,
    To: to,
    Direction: 'inbound',
    CallStatus: 'ringing',
  });

  const callsOf = (partnerId: string) =>
    dataSource.query(
      `SELECT id, direction, status, provider, provider_call_id, from_number, to_number, agent_id
         FROM calls.calls WHERE partner_id = $1`,
      [partnerId],
    ) as Promise<Record<string, unknown>[]>;

  it('answers a number’s call with its agent, streams it to the voice service, and publishes it', async () => {
    const partnerId = randomUUID();
    const agentId = randomUUID();
    const { connectionId, phoneNumberId } = await saveInboundNumber(
      dataSource,
      partnerId,
      '+14155550301',
      agentId,
    );
    const webhook = inboundWebhook(
      voiceUrl(connectionId),
      ringing('CAinbound1', '+919812345678', '+14155550301'),
    );

    const reply = await calls.send('calls.inbound_callback.ingest', null, webhook);
    const again = await calls.send('calls.inbound_callback.ingest', null, webhook);

    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<Stream');
    expect(again.body).toContain('<Stream');
    const [call] = await callsOf(partnerId);
    expect(await callsOf(partnerId)).toHaveLength(1);
    expect(call).toMatchObject({
      direction: 'inbound',
      status: 'in_progress',
      provider: 'sandbox',
      provider_call_id: 'CAinbound1',
      from_number: '+919812345678',
      to_number: '+14155550301',
      agent_id: agentId,
    });
    expect(reply.body).toContain(call.id as string);
    const [decision] = (await dataSource.query(
      `SELECT action, source, agent_id, phone_number_id, call_id FROM calls.inbound_route_decisions
        WHERE partner_id = $1`,
      [partnerId],
    )) as Record<string, unknown>[];
    expect(decision).toEqual({
      action: 'ANSWER_WITH_AI',
      source: 'no_policy',
      agent_id: agentId,
      phone_number_id: phoneNumberId,
      call_id: call.id,
    });
    expect(calls.peers.received).toContainEqual({
      subject: 'agents.agent.for_call',
      partnerId,
      data: { id: agentId },
    });
    const answered = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === call.id && e.data.status === 'in_progress',
    );
    expect(answered.data).toMatchObject({ direction: 'inbound', from_number: '+919812345678' });
  });

  it('moves the answered call on with its later callbacks to the same URL, never routing it again', async () => {
    const partnerId = randomUUID();
    const { connectionId } = await saveInboundNumber(dataSource, partnerId, '+14155550304', randomUUID());
    const url = voiceUrl(connectionId);
    await calls.send(
      'calls.inbound_callback.ingest',
      null,
      inboundWebhook(url, ringing('CAinbound4', '+919812345678', '+14155550304')),
    );
    // A final callback is checked with the carrier's record of the call before it ends the call.
    carrier.known.set('CAinbound4', {
      to: '+14155550304',
      from: '+919812345678',
      status: 'completed',
      duration: '42',
      date_created: new Date().toUTCString(),
    });

    await calls.send(
      'calls.inbound_callback.ingest',
      null,
      inboundWebhook(url, {
        ...ringing('CAinbound4', '+919812345678', '+14155550304'),
        CallStatus: 'completed',
        CallDuration: '42',
      }),
    );

    const [call] = await callsOf(partnerId);
    expect(call.status).toBe('completed');
    expect(carrier.onCall('CAinbound4').map((r) => r.method)).toEqual(['GET']);
    const ended = await calls.waitForEvent<CallStatusUpdatedData>(
      DomainEvents.callStatusUpdated,
      (e) => e.data.call_id === call.id && e.data.terminal === true,
    );
    expect(ended.data).toMatchObject({ status: 'completed', direction: 'inbound' });
    const decisions = (await dataSource.query(
      `SELECT id FROM calls.inbound_route_decisions WHERE partner_id = $1`,
      [partnerId],
    )) as unknown[];
    expect(decisions).toHaveLength(1);
  });

  it('rejects a call to a number without an agent, opening no call', async () => {
    const partnerId = randomUUID();
    const { connectionId } = await saveInboundNumber(dataSource, partnerId, '+14155550302', null);

    const reply = await calls.send(
      'calls.inbound_callback.ingest',
      null,
      inboundWebhook(voiceUrl(connectionId), ringing('CAinbound2', '+919812345678', '+14155550302')),
    );

    expect(reply.body).toContain('<Reject');
    expect(await callsOf(partnerId)).toEqual([]);
  });

  it('refuses an unsigned webhook and an unknown connection, storing nothing', async () => {
    const partnerId = randomUUID();
    const { connectionId } = await saveInboundNumber(dataSource, partnerId, '+14155550303', randomUUID());
    const form = ringing('CAinbound3', '+919812345678', '+14155550303');

    await expect(
      calls.send(
        'calls.inbound_callback.ingest',
        null,
        inboundWebhook(voiceUrl(connectionId), form, 'forged'),
      ),
    ).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(
      calls.send('calls.inbound_callback.ingest', null, inboundWebhook(voiceUrl(randomUUID()), form)),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await callsOf(partnerId)).toEqual([]);
    const decisions = (await dataSource.query(
      `SELECT id FROM calls.inbound_route_decisions WHERE partner_id = $1`,
      [partnerId],
    )) as unknown[];
    expect(decisions).toEqual([]);
  });
});
