// Browser session expiry as it runs in the calls module, on its own timer: a session not connected before its
// access token lapses (BROWSER_SESSION_TOKEN_TTL_MS, the shortest allowed here) is expired, frees its slot of the
// concurrency limit, uncharged, and goes to post-call processing; an active session that outlived its agent's max
// duration by the grace is ended as stale. The timer reads the database's clock, so the spec waits on the outcome.
import { DataSource } from 'typeorm';
import { waitFor } from '@vap/testing';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
import { createBrowserSession } from '../../../testing/browser-sessions';
import { startCalls } from '../../../testing/calls-integration';
import { answerAgents, approvedPartner, SPEC_SNAPSHOT } from '../../../testing/spec-partners';

const TTL_MS = 1000;
const GRACE_SECS = 60;

describe('expire browser sessions', () => {
  let calls: IntegrationApp<CallsConfig>;
  let dataSource: DataSource;

  beforeAll(async () => {
    calls = await startCalls({
      env: { BROWSER_SESSION_TOKEN_TTL_MS: String(TTL_MS), STALE_CALL_GRACE_SECS: String(GRACE_SECS) },
    });
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers);
  });

  afterAll(() => calls?.stop());

  const rowOf = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT c.status, c.end_call_reason, c.bill_duration_seconds, b.expired,
                (SELECT count(*)::int FROM calls.post_call_jobs j WHERE j.call_id = c.id) AS post_call_jobs
           FROM calls.calls c JOIN calls.browser_sessions b ON b.call_id = c.id WHERE c.id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('expires a session not connected in time, uncharged, and frees its slot', async () => {
    const partner = approvedPartner({ concurrencyLimit: 1 });
    const created = await createBrowserSession(calls, partner);
    const { id } = created;
    // Its access lasts BROWSER_SESSION_TOKEN_TTL_MS from creation (the row's clock and the app's differ a little).
    const ttl = Date.parse(created.expires_at) - Date.parse(created.created_at);
    expect(Math.abs(ttl - TTL_MS)).toBeLessThanOrEqual(250);

    await waitFor(async () => (await rowOf(id)).expired === true, {
      timeoutMs: TTL_MS + 3000,
      intervalMs: 50,
      description: 'the session expired',
    });

    expect(await rowOf(id)).toEqual({
      status: 'canceled',
      end_call_reason: 'browser_session_expired',
      bill_duration_seconds: 0,
      expired: true,
      post_call_jobs: 1,
    });
    const got = await calls.send('calls.browser_session.get', partner.id, { id });
    expect(got).toMatchObject({
      status: 'expired',
      end_reason: 'browser_session_expired',
      started_at: null,
      ended_at: expect.any(String),
      credits_used: 0,
      duration_secs: 0,
    });
    const expired = await calls.send('calls.browser_session.list', partner.id, { status: 'expired' });
    expect(expired.browser_sessions.map((s) => s.id)).toEqual([id]);
    // Its slot is free again.
    expect((await createBrowserSession(calls, partner)).status).toBe('pending');
  });

  it('ends an active session past its agent’s max duration and the grace as stale', async () => {
    const partner = approvedPartner();
    const { id } = await createBrowserSession(calls, partner);
    // Connected long ago: the voice service's end report never came.
    const startedAt = new Date(Date.now() - (SPEC_SNAPSHOT.maxCallDurationSecs! + GRACE_SECS + 5) * 1000);
    await dataSource.query(`UPDATE calls.calls SET status = 'in_progress', started_at = $2 WHERE id = $1`, [
      id,
      startedAt,
    ]);

    await waitFor(async () => (await rowOf(id)).status === 'completed', {
      timeoutMs: 3000,
      intervalMs: 50,
      description: 'the stale session ended',
    });

    expect(await rowOf(id)).toMatchObject({
      end_call_reason: 'stale_call_timeout',
      expired: false,
      post_call_jobs: 1,
      // Billed for no more than the agent's max duration.
      bill_duration_seconds: SPEC_SNAPSHOT.maxCallDurationSecs,
    });
  });
});
