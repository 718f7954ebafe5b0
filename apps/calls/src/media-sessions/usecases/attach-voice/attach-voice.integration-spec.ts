// calls.voice.attach as the voice service sends it to the running calls module when a media stream upgrades: the
// stream must carry the carrier's own signature (the sandbox's is carrier_b's, keyed with the account's token;
// carrier_a's and carrier_b's are keyed with the partner's saved token), its token's nonce is spent once, and the call opens one stream in its life, on the replica that claimed it. A warm
// transfer's consult stream takes the briefing once. The answer is what the conversation needs of the call.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode, STREAM_TAKEN_DETAIL, VoiceAttachRequest } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
import {
  CARRIER_A_NONCE_HEADER,
  CARRIER_A_SIGNATURE_HEADER,
  carrierASignature,
} from '../../../carriers/carrier-a/carrier-a-signature';
import { carrierBSignature } from '../../../carriers/carrier-b/carrier-b-signature';
import { Connection } from '../../../telephony/connections/entities/connection.entity';
import { saveCall } from '../../../testing/call-rows';
import { FakeSandboxCarrier, SANDBOX_TOKEN } from '../../../testing/fake-sandbox-carrier';
import { saveSandboxCall, startCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { saveWarmTransferCall, TRANSFER_HUMAN } from '../../../testing/warm-transfer-calls';

describe('attach voice', () => {
  let calls: IntegrationApp<CallsConfig>;
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  beforeAll(async () => {
    calls = await startCallsOnSandbox(carrier);
    dataSource = calls.get(DataSource);
  });

  afterAll(async () => {
    await calls?.stop();
    await carrier.close();
  });

  /** An upgrade of `callId`'s stream as the sandbox carrier signs it (the URL, no parameters). */
  function upgrade(callId: string, fields: Partial<VoiceAttachRequest> = {}): VoiceAttachRequest {
    const url = `wss://media.example/stream/${callId}?token=t`;
    return {
      callId,
      carrier: 'sandbox',
      nonce: randomUUID(),
      url,
      headers: { 'X-Twilio-Signature': carrierBSignature(SANDBOX_TOKEN, url, new Map()) },
      replicaId: 'replica-a',
      attemptId: randomUUID(),
      ...fields,
    };
  }

  const attach = (request: VoiceAttachRequest) => calls.send('calls.voice.attach', null, request);

  it('claims the call’s stream for the replica and answers the call’s context', async () => {
    const call = await saveSandboxCall(dataSource, { variables: { name: 'Asha' } });

    const context = await attach(upgrade(call.id));

    expect(context).toMatchObject({
      callId: call.id,
      partnerId: call.partnerId,
      agentId: call.agentId,
      sessionId: call.sessionId,
      direction: 'outbound',
      fromNumber: call.fromNumber,
      toNumber: call.toNumber,
      provider: 'sandbox',
      variables: { name: 'Asha' },
      answeredBy: 'human',
      agent: call.agentSettings,
    });
    expect((await storedCall(dataSource, call.id)).session).toMatchObject({
      mediaStream: 'live',
      voiceReplicaId: 'replica-a',
    });
  });

  it('answers the same attempt again, and refuses a spent token and a second stream', async () => {
    const call = await saveSandboxCall(dataSource);
    const first = upgrade(call.id);
    await attach(first);

    // The replica lost the answer and asks again: the same stream.
    expect(await attach(first)).toMatchObject({ callId: call.id });
    await expect(attach({ ...first, attemptId: randomUUID() })).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
    });
    await expect(attach(upgrade(call.id, { replicaId: 'replica-b' }))).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      details: [STREAM_TAKEN_DETAIL],
    });
    expect((await storedCall(dataSource, call.id)).session.voiceReplicaId).toBe('replica-a');
  });

  it('refuses an unsigned upgrade without spending its token', async () => {
    const call = await saveSandboxCall(dataSource);
    const signed = upgrade(call.id);

    await expect(attach({ ...signed, headers: { 'X-Twilio-Signature': 'forged' } })).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
    });
    expect((await storedCall(dataSource, call.id)).session.mediaStream).toBeNull();
    expect(await attach(signed)).toMatchObject({ callId: call.id });
  });

  /** A call of a partner with its own account at `carrier`, whose auth token is `token`. */
  async function carrierCall(carrier: 'carrier_a' | 'carrier_b', token: string) {
    const partnerId = randomUUID();
    if (carrier === 'carrier_a') {
      await calls.send('calls.telephony.carrier_a_put', partnerId, {
        auth_id: 'MAATTACH000000000001',
        auth_token: token,
        from_number: '+919812301001',
      });
    } else {
      await calls.send('calls.telephony.carrier_b_put', partnerId, {
        account_sid: 'ACattach00000000000000000000000001',
        auth_token: token,
        from_number: '+14155570101',
      });
    }
    const connection = await dataSource
      .getRepository(Connection)
      .findOneByOrFail({ partnerId, provider: carrier });
    return saveCall(dataSource, { partnerId, connectionId: connection.id, provider: carrier });
  }

  /** The headers `carrier` signs a WebSocket upgrade of `url` with (a GET, no parameters), keyed with `token`. */
  function carrierSigned(
    carrier: 'carrier_a' | 'carrier_b',
    token: string,
    url: string,
  ): Record<string, string> {
    if (carrier === 'carrier_b') return { 'X-Twilio-Signature': carrierBSignature(token, url, new Map()) };
    const nonce = String(Date.now());
    return {
      [CARRIER_A_SIGNATURE_HEADER]: carrierASignature(token, 'GET', url, new Map(), nonce),
      [CARRIER_A_NONCE_HEADER]: nonce,
    };
  }

  it.each([
    ['carrier_b', 'signed with another token'],
    ['carrier_b', 'not signed'],
    ['carrier_a', 'signed with another token'],
    ['carrier_a', 'not signed'],
  ] as const)('refuses a %s upgrade %s without spending its token', async (carrier, how) => {
    const token = `attach-${carrier}-token-0001`;
    const call = await carrierCall(carrier, token);
    const url = `wss://media.example/stream/${call.id}?token=t`;
    const signed = upgrade(call.id, { carrier, url, headers: carrierSigned(carrier, token, url) });
    const headers = how === 'not signed' ? {} : carrierSigned(carrier, `${token}-wrong`, url);

    await expect(attach({ ...signed, headers })).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect((await storedCall(dataSource, call.id)).session.mediaStream).toBeNull();
    // The carrier's own signature opens the stream with the same token.
    expect(await attach(signed)).toMatchObject({ callId: call.id, provider: carrier });
  });

  it('refuses another carrier’s stream, an ended call, an unknown call and an attach without a replica', async () => {
    const call = await saveSandboxCall(dataSource);
    const ended = await saveSandboxCall(dataSource, { status: 'completed' });

    await expect(attach(upgrade(call.id, { carrier: 'carrier_b' }))).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    await expect(attach(upgrade(ended.id))).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(attach(upgrade(randomUUID()))).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(attach(upgrade(call.id, { replicaId: 'no spaces allowed' }))).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    expect((await storedCall(dataSource, call.id)).session.mediaStream).toBeNull();
  });

  it('opens a warm transfer’s consult stream once, with the briefing', async () => {
    const call = await saveWarmTransferCall(dataSource);
    await calls.send('calls.voice.warm_transfer', null, {
      callId: call.id,
      to: TRANSFER_HUMAN,
      reason: 'billing_question',
      briefing: 'Asha asks about a double charge.',
    });
    const consultId = (await storedCall(dataSource, call.id)).call.transferConsultId!;

    const context = await attach(upgrade(consultId));

    expect(context).toMatchObject({
      callId: consultId,
      toNumber: TRANSFER_HUMAN,
      answeredBy: 'human',
      agent: expect.objectContaining({ enableRecording: false }),
      consult: { callId: call.id, briefing: 'Asha asks about a double charge.' },
    });
    await expect(attach(upgrade(consultId))).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      details: [STREAM_TAKEN_DETAIL],
    });
  });
});
