import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('Idempotency-Key on POST /calls/start', () => {
  let partner: CallsPartner;
  let agent: { id: string };
  let tap: EventTap;

  beforeAll(async () => {
    partner = await CallsPartner.create({ concurrency_limit: 20 });
    agent = await partner.createAgent();
    tap = await EventTap.open();
  });

  afterAll(async () => {
    await tap?.close();
  });

  it('returns the same call for the same key and body, never a second call', async () => {
    const body = { agent_id: agent.id, to_number: callee('01'), client_reference_id: `idem-${Date.now()}` };
    const key = `key-${Date.now()}`;
    const first = await partner.start(body, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    // Key order does not matter: the same body is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await partner.start(reordered, { 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.data.call_id).toBe(first.body.data.call_id);
    const listed = await partner.calls(`?client_reference_id=${body.client_reference_id}`);
    expect(listed.body.data.calls).toHaveLength(1);
    await tap.sessionCompleted(first.body.data.call_id);
  });

  it('answers 409 CONFLICT for the same key with a different body', async () => {
    const key = `key-diff-${Date.now()}`;
    const first = await partner.start(
      { agent_id: agent.id, to_number: callee('01') },
      { 'Idempotency-Key': key },
    );
    expect(first.status).toBe(200);
    const other = await partner.start(
      { agent_id: agent.id, to_number: callee('02') },
      { 'Idempotency-Key': key },
    );
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/Idempotency-Key/),
    });
    await tap.sessionCompleted(first.body.data.call_id);
  });

  it('creates one call when the same request races with one key', async () => {
    const ref = `idem-race-${Date.now()}`;
    const body = { agent_id: agent.id, to_number: callee('01'), client_reference_id: ref };
    const key = `key-race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => partner.start(body, { 'Idempotency-Key': key })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.data.call_id)).size).toBe(1);
    expect((await partner.calls(`?client_reference_id=${ref}`)).body.data.calls).toHaveLength(1);
    await tap.sessionCompleted(results[0].body.data.call_id);
  });

  it('keeps keys per account and lets a failed request be retried with its key', async () => {
    const key = `key-shared-${Date.now()}`;
    const other = await CallsPartner.create();
    const otherAgent = await other.createAgent();
    const mine = await partner.start(
      { agent_id: agent.id, to_number: callee('01') },
      { 'Idempotency-Key': key },
    );
    const theirs = await other.start(
      { agent_id: otherAgent.id, to_number: callee('01') },
      { 'Idempotency-Key': key },
    );
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.call_id).not.toBe(mine.body.data.call_id);

    const failKey = `key-fail-${Date.now()}`;
    const bad = await partner.start(
      { agent_id: agent.id, to_number: 'nope' },
      { 'Idempotency-Key': failKey },
    );
    expect(bad.status).toBe(400);
    const badAgain = await partner.start(
      { agent_id: agent.id, to_number: 'nope' },
      { 'Idempotency-Key': failKey },
    );
    expect(badAgain.status).toBe(400);
    expect(badAgain.headers.get('idempotency-replayed')).toBeNull();
    await tap.sessionCompleted(mine.body.data.call_id);
    await tap.sessionCompleted(theirs.body.data.call_id);
  });

  it('refuses a malformed key with 400', async () => {
    const res = await partner.start(
      { agent_id: agent.id, to_number: callee('01') },
      { 'Idempotency-Key': 'x'.repeat(256) },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});
