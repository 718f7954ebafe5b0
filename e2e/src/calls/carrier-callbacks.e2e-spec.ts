import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { CARRIER_B_SIGNATURE_HEADER, signCarrierB } from '@vap/carrier-sim';
import { e2eEnv, gatewayUrl } from '../../support';
import { CallsPartner, callee, EventTap } from './call-fixtures';

/** The platform's auth token at the sandbox carrier: its callbacks are signed with it, carrier_b style. */
function sandboxToken(): string {
  return e2eEnv().appEnv.SANDBOX_AUTH_TOKEN;
}

function signedPost(path: string, fields: Record<string, string>, sign = true, token = sandboxToken()) {
  const url = `${gatewayUrl()}${path}`;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(sign ? { [CARRIER_B_SIGNATURE_HEADER]: signCarrierB(token, url, fields) } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The sandbox carrier's CallSid of a call: its callbacks must name it. */
async function callSidOf(callId: string): Promise<string> {
  const db = new Client({ connectionString: e2eEnv().databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query('SELECT provider_call_id FROM calls.calls WHERE id = $1', [callId]);
    return rows[0].provider_call_id as string;
  } finally {
    await db.end();
  }
}

describe('carrier callbacks on the gateway', () => {
  let partner: CallsPartner;
  let tap: EventTap;
  let callId: string;
  let callSid: string;

  beforeAll(async () => {
    partner = await CallsPartner.create();
    const agent = await partner.createAgent();
    tap = await EventTap.open();
    const res = await partner.start({ agent_id: agent.id, to_number: callee('01') });
    callId = res.body.data.call_id;
    await tap.sessionCompleted(callId);
    callSid = await callSidOf(callId);
  });

  afterAll(async () => {
    await tap?.close();
  });

  const path = () => `/callbacks/sandbox/${callId}/status`;

  it('refuses unsigned and wrongly signed callbacks with 403 and stores nothing', async () => {
    const before = tap.of(callId).length;
    const unsigned = await signedPost(
      path(),
      { CallSid: callSid, CallStatus: 'completed', SequenceNumber: '50', EventType: 'call-progress' },
      false,
    );
    expect(unsigned.status).toBe(403);
    expect(((await unsigned.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    const wrongKey = await signedPost(
      path(),
      { CallSid: callSid, CallStatus: 'completed', SequenceNumber: '51', EventType: 'call-progress' },
      true,
      randomBytes(24).toString('hex'),
    );
    expect(wrongKey.status).toBe(403);
    await new Promise((r) => setTimeout(r, 1000));
    expect(tap.of(callId).length).toBe(before);
    expect((await partner.calls(`/${callId}`)).body.data.status).toBe('no_answer');
  });

  it('answers 404 for an unknown provider or call', async () => {
    expect(
      (await signedPost(`/callbacks/carrier_z/${callId}/status`, { CallStatus: 'ringing' })).status,
    ).toBe(404);
    expect(
      (await signedPost(`/callbacks/sandbox/${randomUUID()}/status`, { CallStatus: 'ringing' })).status,
    ).toBe(404);
  });

  it('answers a malformed percent-escape in a callback path with the error envelope', async () => {
    for (const bad of [
      `/callbacks/sandbox/${callId}/%ZZ`,
      '/callbacks/%ZZ/x/status',
      `/callbacks/sandbox/%E0%A4%A/status`,
      '/callbacks/inbound/carrier_b/%ZZ/voice',
    ]) {
      const res = await signedPost(bad, { CallStatus: 'ringing' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { success: boolean; error: { code: string; request_id: string } };
      expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(body.error.request_id).toEqual(expect.any(String));
    }
  });

  it('ignores duplicates and statuses that would move backwards or out of a terminal status', async () => {
    const before = tap.statuses(callId);
    expect(before).toEqual(['pending', 'ringing', 'no_answer']);
    // A repeat of an earlier callback (same sequence number), then late progress after the end.
    const late = (
      [
        { CallStatus: 'ringing', SequenceNumber: '2', EventType: 'call-progress' },
        { CallStatus: 'in-progress', SequenceNumber: '90', EventType: 'call-progress', AnsweredBy: 'human' },
        { CallStatus: 'completed', SequenceNumber: '91', EventType: 'call-progress', CallDuration: '30' },
      ] as Record<string, string>[]
    ).map((fields) => ({ CallSid: callSid, ...fields }));
    for (const fields of late) {
      const res = await signedPost(path(), fields);
      expect(res.status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(tap.statuses(callId)).toEqual(before);
    const call = (await partner.calls(`/${callId}`)).body.data;
    expect(call).toMatchObject({ status: 'no_answer', duration_seconds: 0, answered_by: 'not_answered' });
  });
});
