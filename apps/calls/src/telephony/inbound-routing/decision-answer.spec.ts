import { INBOUND_ROUTE_ACTIONS } from '@vap/api';
import { readDecisionAnswer } from './decision-answer';

const ALL = INBOUND_ROUTE_ACTIONS;
const AGENT = '3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11';

describe('readDecisionAnswer', () => {
  it.each([
    ['{"action":"ANSWER_WITH_AI"}', { action: 'ANSWER_WITH_AI', agentId: null, toNumber: null }],
    ['{"action":"REJECT","reason":"closed"}', { action: 'REJECT', agentId: null, toNumber: null }],
    [
      '{"action":"TRANSFER","to_number":"+919876543210"}',
      { action: 'TRANSFER', agentId: null, toNumber: '+919876543210' },
    ],
    [
      `{"action":"SELECT_AGENT","agent_id":"${AGENT}"}`,
      { action: 'SELECT_AGENT', agentId: AGENT, toNumber: null },
    ],
  ])('accepts %s', (raw, answer) => {
    expect(readDecisionAnswer(raw, ALL)).toEqual({ answer });
  });

  it.each([
    ['not JSON', 'ok', /not JSON/],
    ['an array', '[]', /not a JSON object/],
    ['an unknown action', '{"action":"HOLD"}', /action must be one of/],
    ['no action', '{}', /action must be one of/],
    ['TRANSFER without to_number', '{"action":"TRANSFER"}', /E\.164/],
    ['TRANSFER to a non-E.164 number', '{"action":"TRANSFER","to_number":"98765"}', /E\.164/],
    ['SELECT_AGENT without agent_id', '{"action":"SELECT_AGENT"}', /agent_id/],
  ])('refuses %s', (_label, raw, reason) => {
    const result = readDecisionAnswer(raw, ALL);
    expect('invalid' in result && result.invalid).toMatch(reason);
  });

  it('refuses an action the policy does not allow', () => {
    expect(
      readDecisionAnswer('{"action":"TRANSFER","to_number":"+919876543210"}', ['ANSWER_WITH_AI', 'REJECT']),
    ).toEqual({
      invalid: 'action TRANSFER is not allowed by the policy',
    });
  });
});
