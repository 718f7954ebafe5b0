import { ErrorDetail } from '@vap/messages';
import { Agent } from './entities/agent.entity';

type RuleFields = Pick<
  Agent,
  'transferEnabled' | 'transferNumber' | 'screenerHandlingEnabled' | 'voicemailDetectionEnabled'
>;

/**
 * Rules between fields, checked on the agent as it would be stored, so an update that changes only one
 * side of a rule is judged against the other side's current value.
 */
export function agentRuleViolations(agent: RuleFields): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (agent.transferEnabled && !agent.transferNumber) {
    problems.push({
      field: 'transfer_number',
      message: 'transfer_number is required when transfer_enabled is true',
    });
  }
  if (agent.screenerHandlingEnabled && !agent.voicemailDetectionEnabled) {
    problems.push({
      field: 'screener_handling_enabled',
      message: 'screener_handling_enabled requires voicemail_detection_enabled to be true',
    });
  }
  return problems;
}
