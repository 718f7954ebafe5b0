import { FanOutEndpoint, selectEndpoints } from './fan-out-rules';

const AGENT = 'agent-1';
const OTHER = 'agent-2';
const endpoint = (id: string, agentId: string | null, events: string[] = []): FanOutEndpoint => ({
  id,
  agentId,
  events,
});

const ids = (list: FanOutEndpoint[]) => list.map((e) => e.id).sort();

describe('selectEndpoints', () => {
  const all = [
    endpoint('account-all', null),
    endpoint('account-sessions', null, ['session.completed']),
    endpoint('agent-all', AGENT),
    endpoint('agent-status', AGENT, ['call.status.updated']),
    endpoint('other-agent', OTHER),
  ];

  it('sends an event with no agent to the account-wide endpoints that take it, never to agent endpoints', () => {
    expect(ids(selectEndpoints(all, 'call.status.updated', null, true))).toEqual(['account-all']);
    expect(ids(selectEndpoints(all, 'session.completed', null, false))).toEqual([
      'account-all',
      'account-sessions',
    ]);
  });

  it('adds the agent’s own endpoints to the account-wide ones while the flag is true', () => {
    expect(ids(selectEndpoints(all, 'call.status.updated', AGENT, true))).toEqual([
      'account-all',
      'agent-all',
      'agent-status',
    ]);
    expect(ids(selectEndpoints(all, 'session.completed', AGENT, true))).toEqual([
      'account-all',
      'account-sessions',
      'agent-all',
    ]);
  });

  it('keeps an agent’s events away from other agents’ endpoints', () => {
    expect(ids(selectEndpoints(all, 'call.status.updated', OTHER, true))).toEqual([
      'account-all',
      'other-agent',
    ]);
  });

  it('sends only to the agent’s own endpoints while the flag is false', () => {
    expect(ids(selectEndpoints(all, 'call.status.updated', AGENT, false))).toEqual([
      'agent-all',
      'agent-status',
    ]);
  });

  it('drops an event no own allowlist takes while the flag is false, instead of passing it on', () => {
    const own = [endpoint('account-all', null), endpoint('agent-status', AGENT, ['call.status.updated'])];
    expect(selectEndpoints(own, 'session.completed', AGENT, false)).toEqual([]);
    expect(ids(selectEndpoints(own, 'session.completed', AGENT, true))).toEqual(['account-all']);
  });

  it('treats an empty allowlist as every type, including ones added later', () => {
    expect(ids(selectEndpoints([endpoint('a', null)], 'campaign.status.updated', null, true))).toEqual(['a']);
  });
});
