import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('GET /calls', () => {
  let partner: CallsPartner;
  let tap: EventTap;
  const ids: string[] = [];
  let agentA: { id: string };
  let agentB: { id: string };
  let startedAt: string;

  beforeAll(async () => {
    partner = await CallsPartner.create({ concurrency_limit: 10 });
    agentA = await partner.createAgent();
    agentB = await partner.createAgent();
    tap = await EventTap.open();
    startedAt = new Date().toISOString();
    for (const [agent, suffix, ref] of [
      [agentA, '01', 'r1'],
      [agentA, '02', 'r2'],
      [agentB, '03', 'r3'],
      [agentB, '01', 'r4'],
      [agentA, '42', 'r5'],
    ] as const) {
      const res = await partner.start({
        agent_id: agent.id,
        to_number: callee(suffix),
        client_reference_id: ref,
      });
      ids.push(res.body.data.call_id);
    }
    await Promise.all(ids.map((id) => tap.sessionCompleted(id)));
  });

  afterAll(async () => {
    await tap?.close();
  });

  const idsOf = (res: { body: { data: { calls: { call_id: string }[] } } }) =>
    res.body.data.calls.map((c) => c.call_id);

  it('pages newest first with a cursor until next_cursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await partner.calls(cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2');
      expect(res.status).toBe(200);
      seen.push(...idsOf(res));
      cursor = res.body.data.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
  });

  it('filters by agent, status, direction, client_reference_id and creation time', async () => {
    expect(idsOf(await partner.calls(`?agent_id=${agentB.id}`))).toEqual([ids[3], ids[2]]);
    expect(idsOf(await partner.calls('?status=no_answer'))).toEqual([ids[3], ids[0]]);
    expect(idsOf(await partner.calls('?client_reference_id=r2'))).toEqual([ids[1]]);
    expect(idsOf(await partner.calls('?direction=inbound'))).toEqual([]);
    expect(
      idsOf(await partner.calls(`?direction=outbound&created_after=${encodeURIComponent(startedAt)}`)),
    ).toHaveLength(5);
    expect(idsOf(await partner.calls(`?created_before=${encodeURIComponent(startedAt)}`))).toEqual([]);
    const listed = (await partner.calls('?client_reference_id=r5')).body.data.calls[0];
    expect(listed).toMatchObject({
      call_id: ids[4],
      status: 'completed',
      session: expect.objectContaining({ processing_complete: true }),
    });
  });

  it.each([
    'status=ringingish',
    'direction=sideways',
    'agent_id=nope',
    'created_after=yesterday',
    'limit=0',
    'cursor=%%%',
  ])('refuses ?%s with 400', async (q) => {
    const res = await partner.calls(`?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});
