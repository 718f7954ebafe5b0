// Idempotency-Key on the start command while the carrier is still answering the dial, in the running calls
// module: the agents service is a fake peer, the carrier a fake of the sandbox line's REST API that holds its
// answer to a placement until the spec lets it go. This is where a gateway that gave up on the first start
// (502) sends the partner's retry: whatever the first attempt's caller saw, a retry with the same key learns
// the first call, and the carrier is dialled exactly once.
import { randomUUID } from 'node:crypto';
import { StartCallCommand } from '@vap/api';
import { ErrorCode, PartnerContext } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox } from '../../../testing/sandbox-calls';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';

describe('start a call: Idempotency-Key while the carrier is dialling', () => {
  const carrier = new FakeSandboxCarrier();
  let partner: PartnerContext;
  let letDialsGo: () => void;
  let n = 0;

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    answerAgents(calls.peers);
    partner = approvedPartner({ concurrencyLimit: 50 });
  });

  beforeEach(() => {
    carrier.placementHeld = new Promise((resolve) => (letDialsGo = resolve));
  });

  afterEach(() => {
    letDialsGo();
    carrier.placementHeld = undefined;
  });

  /** A callee of its own per test, so dials can be counted per test. */
  const nextCallee = () => `+1415557${String(1000 + n++).padStart(4, '0')}`;
  const dialsTo = (to: string) =>
    carrier.requests.filter((r) => r.path === '/Calls.json' && r.form.get('To') === to).length;
  const start = (command: StartCallCommand) => calls.send('calls.call.start', partner, command);
  const dialled = (to: string) => waitFor(() => dialsTo(to) > 0, { description: `a dial to ${to}` });

  it('answers a retry during the dial and after it with the first call, dialled once', async () => {
    const to = nextCallee();
    const ref = `idem-${randomUUID()}`;
    const command = {
      agent_id: randomUUID(),
      to_number: to,
      client_reference_id: ref,
      idempotency_key: `dialling-${randomUUID()}`,
    };
    const first = start(command);
    await dialled(to);

    const during = await start(command);
    expect(during.replayed).toBe(true);
    letDialsGo();
    expect(await first).toMatchObject({ replayed: false, call: { call_id: during.call.call_id } });
    const after = await start(command);
    expect(after).toMatchObject({ replayed: true, call: { call_id: during.call.call_id } });

    expect(dialsTo(to)).toBe(1);
    const listed = await calls.send('calls.call.list', partner, { client_reference_id: ref });
    expect(listed.calls).toHaveLength(1);
  });

  it('refuses CONFLICT the same key with another body during the dial, and dials nothing more', async () => {
    const [to, other] = [nextCallee(), nextCallee()];
    const agentId = randomUUID();
    const key = `other-body-${randomUUID()}`;
    const first = start({ agent_id: agentId, to_number: to, idempotency_key: key });
    await dialled(to);

    await expect(start({ agent_id: agentId, to_number: other, idempotency_key: key })).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: expect.stringMatching(/Idempotency-Key/),
    });
    letDialsGo();
    await first;
    expect(dialsTo(to)).toBe(1);
    expect(dialsTo(other)).toBe(0);
  });

  it('dials once when retries race during the dial', async () => {
    const to = nextCallee();
    const command = {
      agent_id: randomUUID(),
      to_number: to,
      idempotency_key: `race-retries-${randomUUID()}`,
    };
    const first = start(command);
    await dialled(to);

    const retries = await Promise.all(Array.from({ length: 5 }, () => start(command)));
    letDialsGo();
    const { call } = await first;
    expect(retries.map((r) => r.replayed)).toEqual([true, true, true, true, true]);
    expect(new Set(retries.map((r) => r.call.call_id))).toEqual(new Set([call.call_id]));
    expect(dialsTo(to)).toBe(1);
  });

  it('dials once when first attempts with one key race, the others learning the call being dialled', async () => {
    const to = nextCallee();
    const command = { agent_id: randomUUID(), to_number: to, idempotency_key: `race-first-${randomUUID()}` };
    const answered: Awaited<ReturnType<typeof start>>[] = [];
    const attempts = Array.from({ length: 5 }, () => start(command).then((r) => (answered.push(r), r)));
    // One attempt placed the call; the other four are answered with it while its dial is still held.
    await waitFor(() => answered.length === 4, { description: 'four answered attempts' });
    expect(answered.map((r) => r.replayed)).toEqual([true, true, true, true]);
    letDialsGo();

    const results = await Promise.all(attempts);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.call.call_id)).size).toBe(1);
    expect(dialsTo(to)).toBe(1);
  });
});
