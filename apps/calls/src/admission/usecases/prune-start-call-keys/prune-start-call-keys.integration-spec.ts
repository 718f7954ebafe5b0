// Pruning of Idempotency-Key bindings in the running calls module: calls are started with a key as the gateway
// sends calls.call.start (the agents service a fake peer, the sandbox carrier a fake of its REST API). Once a
// binding is past its retention the pruner deletes it and the key starts a new call; a live key still replays
// its call.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';
import { RETENTION_HOURS } from '../../start-call-keys';
import { StartCallKeysPruner } from './start-call-keys-pruner.service';

describe('prune start-call keys', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers);
  });

  it('deletes the bindings past their retention, so their key starts a new call, and keeps the live ones', async () => {
    const partner = approvedPartner();
    const agentId = randomUUID();
    const start = (key: string) =>
      calls.send('calls.call.start', partner, {
        agent_id: agentId,
        to_number: '+919812345678',
        idempotency_key: key,
      });
    const old = await start('old-key');
    const live = await start('live-key');
    // The old binding was made longer ago than the retention.
    await dataSource.query(
      `UPDATE calls.start_call_keys SET created_at = now() - make_interval(hours => $3)
        WHERE partner_id = $1 AND key = $2`,
      [partner.id, 'old-key', RETENTION_HOURS + 1],
    );

    expect(await calls.get(StartCallKeysPruner).prune()).toBe(1);
    expect(await calls.get(StartCallKeysPruner).prune()).toBe(0);

    const keys = (await dataSource.query(
      `SELECT key, call_id FROM calls.start_call_keys WHERE partner_id = $1`,
      [partner.id],
    )) as { key: string; call_id: string }[];
    expect(keys).toEqual([{ key: 'live-key', call_id: live.call.call_id }]);
    const again = await start('old-key');
    expect(again.replayed).toBe(false);
    expect(again.call.call_id).not.toBe(old.call.call_id);
    expect(await start('live-key')).toMatchObject({ replayed: true, call: { call_id: live.call.call_id } });
    expect(carrier.requests.filter((r) => r.path === '/Calls.json' && r.method === 'POST')).toHaveLength(3);
  });
});
