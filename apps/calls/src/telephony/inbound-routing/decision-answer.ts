import { E164_PATTERN, INBOUND_ROUTE_ACTIONS, InboundRouteAction } from '@vap/api';
import { isUuid } from '@vap/messages';

export interface DecisionAnswer {
  action: InboundRouteAction;
  agentId: string | null;
  toNumber: string | null;
}

/**
 * Checks a decision URL's answer against the response contract: a JSON object whose action is one of the
 * policy's allowed actions; TRANSFER needs to_number in E.164, SELECT_AGENT needs agent_id. Returns the
 * answer, or why it is not acceptable (the policy's failure_action then applies).
 */
export function readDecisionAnswer(
  raw: string,
  allowed: readonly InboundRouteAction[],
): { answer: DecisionAnswer } | { invalid: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { invalid: 'response is not JSON' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { invalid: 'response is not a JSON object' };
  const body = parsed as Record<string, unknown>;
  const action = body.action;
  if (typeof action !== 'string' || !(INBOUND_ROUTE_ACTIONS as readonly string[]).includes(action)) {
    return { invalid: `action must be one of ${INBOUND_ROUTE_ACTIONS.join(', ')}` };
  }
  const known = action as InboundRouteAction;
  if (!allowed.includes(known)) return { invalid: `action ${known} is not allowed by the policy` };
  if (known === 'TRANSFER') {
    if (typeof body.to_number !== 'string' || !E164_PATTERN.test(body.to_number)) {
      return { invalid: 'TRANSFER needs to_number in E.164' };
    }
    return { answer: { action: known, agentId: null, toNumber: body.to_number } };
  }
  if (known === 'SELECT_AGENT') {
    if (!isUuid(body.agent_id)) {
      return { invalid: 'SELECT_AGENT needs agent_id (a UUID)' };
    }
    return { answer: { action: known, agentId: body.agent_id.toLowerCase(), toNumber: null } };
  }
  return { answer: { action: known, agentId: null, toNumber: null } };
}
