import { connect, consumerOpts, NatsConnection, StringCodec } from 'nats';
import { api, createPartner } from '../../support';

/** The caller's X-Request-Id travels over NATS into the service handling the command. */
describe('request id propagation', () => {
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: process.env.E2E_NATS_URL! });
  });

  afterAll(async () => {
    await nc?.close();
  });

  it('reaches the handler behind NATS: the domain event it records carries the id', async () => {
    const { apiKey } = await createPartner({ name: 'Trace Co' });
    const prefix = process.env.E2E_NATS_PREFIX!;
    const requestId = `trace-${Date.now()}`;
    const res = await api('/api/v2/customers', {
      method: 'POST',
      key: apiKey,
      body: { external_id: requestId, name: 'Traced' },
      headers: { 'x-request-id': requestId },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);

    const js = nc.jetstream();
    const opts = consumerOpts();
    opts.orderedConsumer();
    opts.deliverAll();
    const sub = await js.subscribe(`${prefix}.events.customer.created`, opts);
    const sc = StringCodec();
    const deadline = setTimeout(() => sub.unsubscribe(), 10_000);
    let found: { requestId?: string; data: { id: string } } | undefined;
    for await (const m of sub) {
      const event = JSON.parse(sc.decode(m.data));
      if (event.data?.external_id === requestId) {
        found = event;
        expect(m.headers?.get('X-Request-Id')).toBe(requestId);
        break;
      }
    }
    clearTimeout(deadline);
    sub.unsubscribe();
    expect(found?.requestId).toBe(requestId);
    expect(found?.data.id).toBe(res.body.data.id);
  });
});
