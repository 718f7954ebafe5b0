// calls.browser_session.list as the gateway sends it for a partner to the running calls module: the partner's
// sessions newest first, paged by cursor, filtered by agent, status and creation time (an unknown status is
// refused); never another partner's sessions or its phone calls, and no session's access token.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../../../config/calls.config';
import { createBrowserSession } from '../../../testing/browser-sessions';
import { startCalls } from '../../../testing/calls-integration';
import { saveCall, saveConnection } from '../../../testing/call-rows';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';

describe('list browser sessions', () => {
  let calls: IntegrationApp<CallsConfig>;
  let dataSource: DataSource;

  beforeAll(async () => {
    calls = await startCalls();
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers);
  });

  afterAll(() => calls?.stop());

  /** Sessions of one partner created a second apart (oldest first), the newest of another agent. */
  async function sessionsOf(partner = approvedPartner()) {
    const agentId = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createBrowserSession(calls, partner, { agent_id: agentId })).id);
    const other = (await createBrowserSession(calls, partner)).id;
    const all = [...ids, other];
    for (const [i, id] of all.entries()) {
      await dataSource.query(`UPDATE calls.calls SET created_at = $2 WHERE id = $1`, [
        id,
        new Date(Date.UTC(2026, 2, 1, 10, 0, i)),
      ]);
    }
    return { partner, agentId, ids, other, newestFirst: [...all].reverse() };
  }

  it('pages the partner’s sessions newest first, and only theirs', async () => {
    const { partner, newestFirst } = await sessionsOf();
    await createBrowserSession(calls, approvedPartner());
    await saveCall(dataSource, {
      partnerId: partner.id,
      connectionId: await saveConnection(dataSource, partner.id, 'carrier_b'),
      provider: 'carrier_b',
    });

    const first = await calls.send('calls.browser_session.list', partner.id, { limit: 3 });
    const second = await calls.send('calls.browser_session.list', partner.id, {
      limit: 3,
      cursor: first.next_cursor!,
    });

    expect([...first.browser_sessions, ...second.browser_sessions].map((s) => s.id)).toEqual(newestFirst);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(second.next_cursor).toBeNull();
    for (const session of [...first.browser_sessions, ...second.browser_sessions]) {
      expect(session).not.toHaveProperty('access_token');
      expect(session).not.toHaveProperty('connect_url');
    }
  });

  it('filters by agent, status and creation time', async () => {
    const { partner, agentId, ids, other } = await sessionsOf();
    await dataSource.query(`UPDATE calls.calls SET status = 'in_progress' WHERE id = $1`, [ids[0]]);
    const list = async (query: Record<string, string>) =>
      (await calls.send('calls.browser_session.list', partner.id, query)).browser_sessions.map((s) => s.id);

    expect(await list({ agent_id: agentId })).toEqual([...ids].reverse());
    expect(await list({ status: 'active' })).toEqual([ids[0]]);
    expect(await list({ status: 'pending' })).toEqual([other, ids[2], ids[1]]);
    expect(await list({ status: 'completed' })).toEqual([]);
    await expect(
      calls.send('calls.browser_session.list', partner.id, { status: 'ringing' } as never),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(
      await list({ created_after: '2026-03-01T10:00:01.000Z', created_before: '2026-03-01T10:00:03.000Z' }),
    ).toEqual([ids[2], ids[1]]);
  });
});
