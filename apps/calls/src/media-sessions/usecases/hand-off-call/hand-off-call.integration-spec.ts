// calls.voice.handoff as the voice service sends it (the agent's handoff_to_<name> tool) to the running calls
// module: the next agent's snapshot is asked of the agents service (a fake peer) and becomes the call's current
// agent, and the session's segments record who held the call and why it moved on. An agent the holder does not
// hand off to, an ended call, a call handed off too often and an agent the agents service refuses change nothing.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AgentSnapshot, AppError, CallSegment, ErrorCode, HANDOFF_LIMITS } from '@vap/messages';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import {
  saveAgentSettings,
  saveSandboxCall,
  useCallsOnSandbox,
  storedCall,
} from '../../../testing/sandbox-calls';

describe('hand off a call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();
  /** The agents the fake agents service knows, by id: their name and snapshot. */
  const agents = new Map<string, { name: string; snapshot: AgentSnapshot }>();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    calls.peers.answer('agents.agent.for_call', ({ id }) => {
      const agent = agents.get(id);
      if (!agent) throw AppError.notFound('Agent');
      return { id, name: agent.name, projectId: randomUUID(), snapshot: agent.snapshot };
    });
  });

  /** A live call whose agent hands off to `nextAgentId`. */
  async function callHandingOffTo(nextAgentId: string, fields: Partial<Call> = {}): Promise<Call> {
    const call = await saveSandboxCall(dataSource, fields);
    call.agentSettings = {
      ...call.agentSettings,
      handoffs: [
        {
          name: 'billing',
          description: 'Billing questions',
          agentId: nextAgentId,
          contextMode: 'full',
          lastTurns: null,
          variables: null,
        },
      ],
    };
    await saveAgentSettings(dataSource, call.id, call.agentSettings);
    return call;
  }

  function billingAgent(call: Call): { id: string; snapshot: AgentSnapshot } {
    const id = randomUUID();
    const snapshot = { ...call.agentSettings, prompt: 'You handle billing.', handoffs: [] };
    agents.set(id, { name: 'Billing', snapshot });
    return { id, snapshot };
  }

  it('puts the next agent on the call and records the segments', async () => {
    const nextId = randomUUID();
    const startedAt = new Date('2026-03-01T10:00:00.000Z');
    const call = await callHandingOffTo(nextId, { startedAt });
    const snapshot = { ...call.agentSettings, prompt: 'You handle billing.', handoffs: [] };
    agents.set(nextId, { name: 'Billing', snapshot });

    const reply = await calls.send('calls.voice.handoff', null, {
      callId: call.id,
      agentId: nextId,
      reason: 'The caller asks about an invoice.',
    });

    expect(reply).toEqual({ agentId: nextId, agentName: 'Billing', agent: snapshot });
    expect(calls.peers.received).toContainEqual({
      subject: 'agents.agent.for_call',
      partnerId: call.partnerId,
      data: { id: nextId },
    });
    const stored = await storedCall(dataSource, call.id);
    expect(stored.call.currentAgentSettings).toEqual(snapshot);
    expect(stored.call.agentSettings.prompt).toBe(call.agentSettings.prompt);
    expect(stored.session.segments).toEqual([
      {
        agent_id: call.agentId,
        agent_name: call.agentName,
        started_at: '2026-03-01T10:00:00.000Z',
        ended_at: expect.any(String),
        handoff_reason: 'The caller asks about an invoice.',
      },
      {
        agent_id: nextId,
        agent_name: 'Billing',
        started_at: stored.session.segments[0].ended_at,
        ended_at: null,
        handoff_reason: null,
      },
    ]);
  });

  it('refuses an agent the holder does not hand off to, asking the agents service nothing', async () => {
    const call = await callHandingOffTo(randomUUID());
    const stranger = billingAgent(call);
    const asked = calls.peers.received.length;

    await expect(
      calls.send('calls.voice.handoff', null, { callId: call.id, agentId: stranger.id, reason: '' }),
    ).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(
      calls.send('calls.voice.handoff', null, { callId: call.id, agentId: 'billing', reason: '' }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(calls.peers.received.length).toBe(asked);
    expect((await storedCall(dataSource, call.id)).call.currentAgentSettings).toBeNull();
  });

  it('refuses an ended call and one handed off as often as a call may be', async () => {
    const nextId = randomUUID();
    const ended = await callHandingOffTo(nextId, { status: 'completed' });
    const looping = await callHandingOffTo(nextId);
    const segment: CallSegment = {
      agent_id: nextId,
      agent_name: 'Billing',
      started_at: new Date().toISOString(),
      ended_at: null,
      handoff_reason: null,
    };
    await dataSource
      .getRepository(CallSession)
      .update(looping.id, { segments: Array(HANDOFF_LIMITS.perCall + 1).fill(segment) });
    agents.set(nextId, { name: 'Billing', snapshot: ended.agentSettings });

    await expect(
      calls.send('calls.voice.handoff', null, { callId: ended.id, agentId: nextId, reason: '' }),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_STATE });
    await expect(
      calls.send('calls.voice.handoff', null, { callId: looping.id, agentId: nextId, reason: '' }),
    ).rejects.toMatchObject({ code: ErrorCode.LIMIT_REACHED });
    expect((await storedCall(dataSource, looping.id)).call.currentAgentSettings).toBeNull();
  });

  it('keeps the agent on the call when the agents service no longer knows the next one', async () => {
    const gone = randomUUID();
    const call = await callHandingOffTo(gone);

    await expect(
      calls.send('calls.voice.handoff', null, { callId: call.id, agentId: gone, reason: 'x' }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    const stored = await storedCall(dataSource, call.id);
    expect(stored.call.currentAgentSettings).toBeNull();
    expect(stored.session.segments).toEqual([]);
  });
});
