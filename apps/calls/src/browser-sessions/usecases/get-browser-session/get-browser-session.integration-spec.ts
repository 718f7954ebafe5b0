// calls.browser_session.get as the gateway sends it for a partner to the running calls module: one of the
// partner's sessions as created (without its access token, shown once) with its conversation's session, its
// refusal explained once the voice service reported one; another partner's session, a phone call's id and a
// malformed id are not found, and a session is no call: the calls' list and get do not find it.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode, isUuid } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
import { createBrowserSession } from '../../../testing/browser-sessions';
import { startCalls } from '../../../testing/calls-integration';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';

describe('get a browser session', () => {
  let calls: IntegrationApp<CallsConfig>;
  let dataSource: DataSource;

  beforeAll(async () => {
    calls = await startCalls();
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers);
  });

  afterAll(() => calls?.stop());

  it('answers the partner’s session as created, without its access token', async () => {
    const partner = approvedPartner();
    const { access_token, connect_url, ...created } = await createBrowserSession(calls, partner, {
      metadata: { order: '42' },
    });

    const got = await calls.send('calls.browser_session.get', partner.id, { id: created.id });

    expect(access_token).toEqual(expect.any(String));
    expect(connect_url).toEqual(expect.any(String));
    expect(got).toEqual(created);
    expect(got).not.toHaveProperty('access_token');
    expect(got).not.toHaveProperty('connect_url');
    expect(isUuid(got.session.session_id)).toBe(true);
  });

  it('explains the last refusal the voice service reported', async () => {
    const partner = approvedPartner();
    const { id } = await createBrowserSession(calls, partner);
    await calls.send('calls.voice.browser_refused', null, {
      sessionId: id,
      reason: 'token_expired',
      origin: 'https://app.example.com',
    });

    const got = await calls.send('calls.browser_session.get', partner.id, { id });

    expect(got.last_refusal).toEqual({
      reason: 'token_expired',
      message: expect.stringContaining('expired'),
      origin: 'https://app.example.com',
      at: expect.any(String),
    });
  });

  it('finds no other partner’s session, no phone call and no malformed id', async () => {
    const partner = approvedPartner();
    const { id } = await createBrowserSession(calls, partner);
    const phone = await saveCall(dataSource, {
      partnerId: partner.id,
      connectionId: await saveConnection(dataSource, partner.id, 'carrier_b'),
      provider: 'carrier_b',
    });

    for (const [partnerId, sessionId] of [
      [randomUUID(), id],
      [partner.id, phone.id],
      [partner.id, 'not-an-id'],
    ]) {
      await expect(
        calls.send('calls.browser_session.get', partnerId, { id: sessionId }),
      ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    }
  });

  it('is not a call: the calls’ list and get do not find it', async () => {
    const partner = approvedPartner();
    const { id } = await createBrowserSession(calls, partner);

    const listed = await calls.send('calls.call.list', partner, {});

    expect(listed.calls.map((c) => c.call_id)).not.toContain(id);
    await expect(calls.send('calls.call.get', partner, { id })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });
});
