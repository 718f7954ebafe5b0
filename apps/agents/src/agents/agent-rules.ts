import { ErrorDetail, TURN_TAKING_PRESETS, TurnTakingConfig } from '@vap/messages';
import { Agent } from './entities/agent.entity';

type RuleFields = Pick<
  Agent,
  | 'transferEnabled'
  | 'transferNumber'
  | 'screenerHandlingEnabled'
  | 'voicemailDetectionEnabled'
  | 'turnTaking'
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
  const silence = turnTakingProblem(agent.turnTaking);
  if (silence) problems.push(silence);
  return problems;
}

/**
 * The minimum silence in force may not exceed the maximum in force, each the override or else the mode's
 * (endpointBoundsOf would quietly raise the maximum to the minimum). The field named is the override that
 * breaks the rule: the minimum when it is set, else the maximum.
 */
function turnTakingProblem(config: TurnTakingConfig): ErrorDetail | null {
  const preset = TURN_TAKING_PRESETS[config.mode];
  const min = config.min_silence_ms ?? preset.min_silence_ms;
  const max = config.max_silence_ms ?? preset.max_silence_ms;
  if (min <= max) return null;
  const modes = `mode ${config.mode}'s`;
  if (config.min_silence_ms === null) {
    return {
      field: 'turn_taking.max_silence_ms',
      message: `turn_taking.max_silence_ms (${max}) must not be below the minimum silence in force (${min}, ${modes})`,
    };
  }
  return {
    field: 'turn_taking.min_silence_ms',
    message:
      `turn_taking.min_silence_ms (${min}) must not exceed the maximum silence in force ` +
      `(${max}, ${config.max_silence_ms === null ? modes : 'turn_taking.max_silence_ms'})`,
  };
}
