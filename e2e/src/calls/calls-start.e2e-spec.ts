import { randomUUID } from 'node:crypto';
import { api } from '../../support';
import { CallsPartner, callee, EventTap } from './call-fixtures';

describe('POST /calls/start', () => {
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

  it.each([
    ['no agent_id', { agent_id: undefined, to_number: '+919876543210' }, 'agent_id'],
    ['agent_id not a uuid', { agent_id: 'agent-1', to_number: '+919876543210' }, 'agent_id'],
    ['no to_number', {}, 'to_number'],
    ['to_number not E.164', { to_number: '9876543210' }, 'to_number'],
    ['to_number with letters', { to_number: '+91abc' }, 'to_number'],
    ['from_number not E.164', { to_number: '+919876543210', from_number: '555' }, 'from_number'],
    ['variables not an object', { to_number: '+919876543210', variables: 'x' }, 'variables'],
    [
      'client_reference_id too long',
      { to_number: '+919876543210', client_reference_id: 'r'.repeat(201) },
      'client_reference_id',
    ],
    ['an unknown field', { to_number: '+919876543210', priority: 1 }, 'priority'],
  ])('answers 400 VALIDATION_ERROR for %s', async (_label, body, field) => {
    const res = await partner.start({ agent_id: agent.id, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('answers 413 PAYLOAD_TOO_LARGE, not 502, for a body under BODY_LIMIT whose command NATS cannot carry', async () => {
    const body = { agent_id: agent.id, to_number: callee('42'), variables: { notes: '' } };
    // A few bytes short of the gateway's 1 MB JSON limit: the command wraps it with the caller, past the
    // 1 MB a NATS message carries.
    body.variables.notes = 'n'.repeat(1024 * 1024 - 40 - Buffer.byteLength(JSON.stringify(body)));
    expect(Buffer.byteLength(JSON.stringify(body))).toBe(1024 * 1024 - 40);
    const res = await partner.start(body);
    expect({ status: res.status, code: res.body.error?.code }).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('refuses both from_number and phone_number_id, and a from_number the account does not own', async () => {
    const both = await partner.start({
      agent_id: agent.id,
      to_number: callee('42'),
      from_number: '+15550000000',
      phone_number_id: 'pn_x',
    });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('VALIDATION_ERROR');
    const foreign = await partner.start({
      agent_id: agent.id,
      to_number: callee('42'),
      from_number: '+15551112222',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/not a phone number of this account/);
    const unknownId = await partner.start({
      agent_id: agent.id,
      to_number: callee('42'),
      phone_number_id: `pn_${randomUUID()}`,
    });
    expect(unknownId.status).toBe(404);
  });

  it('answers 404 for an unknown agent, another account’s agent and a deleted agent', async () => {
    const unknown = await partner.start({ agent_id: randomUUID(), to_number: callee('42') });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    const other = await CallsPartner.create();
    const theirs = await other.createAgent();
    expect((await partner.start({ agent_id: theirs.id, to_number: callee('42') })).status).toBe(404);

    const doomed = await partner.createAgent();
    expect((await api(`/agent/${doomed.id}`, { method: 'DELETE', key: partner.generalKey })).status).toBe(
      200,
    );
    const deleted = await partner.start({ agent_id: doomed.id, to_number: callee('42') });
    expect(deleted.status).toBe(404);
    expect(deleted.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 403 FORBIDDEN when the balance does not cover one 30-second call', async () => {
    const poor = await CallsPartner.create({ balance_inr: 1.99 });
    const poorAgent = await poor.createAgent();
    const res = await poor.start({ agent_id: poorAgent.id, to_number: callee('42') });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/balance/i) });

    const enough = await CallsPartner.create({ balance_inr: 2 });
    const okAgent = await enough.createAgent();
    const ok = await enough.start({ agent_id: okAgent.id, to_number: callee('01') });
    expect(ok.status).toBe(200);
    await tap.sessionCompleted(ok.body.data.call_id);
  });

  it('starts on an explicit caller ID: the default number by value and by id', async () => {
    const first = await partner.start({ agent_id: agent.id, to_number: callee('02') });
    expect(first.status).toBe(200);
    const number = first.body.data.from_number;
    const byValue = await partner.start({ agent_id: agent.id, to_number: callee('02'), from_number: number });
    expect(byValue.status).toBe(200);
    expect(byValue.body.data.from_number).toBe(number);
    const numbers = await api('/phone-numbers', { key: partner.generalKey });
    const id = numbers.body.data.phone_numbers.find((n: { number: string }) => n.number === number).id;
    const byId = await partner.start({ agent_id: agent.id, to_number: callee('02'), phone_number_id: id });
    expect(byId.status).toBe(200);
    expect(byId.body.data.from_number).toBe(number);
    for (const r of [first, byValue, byId]) await tap.sessionCompleted(r.body.data.call_id);
  });

  it('keeps another account’s call invisible: 404 on get and recording-url, absent from lists', async () => {
    const res = await partner.start({
      agent_id: agent.id,
      to_number: callee('03'),
      client_reference_id: 'tenancy',
    });
    const callId = res.body.data.call_id;
    const other = await CallsPartner.create();
    for (const path of [`/${callId}`, `/${callId}/recording-url`]) {
      const seen = await other.calls(path);
      expect(seen.status).toBe(404);
      expect(seen.body.error.code).toBe('NOT_FOUND');
    }
    expect((await other.calls('?client_reference_id=tenancy')).body.data.calls).toEqual([]);
    expect((await partner.calls('/not-a-uuid')).status).toBe(404);
    await tap.sessionCompleted(callId);
  });
});
