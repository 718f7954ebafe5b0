import {
  DEFAULT_SPOKEN_LANGUAGES,
  ErrorDetail,
  TranscriberSettings,
  TURN_TAKING_PRESETS,
  TurnTakingConfig,
} from '@vap/messages';
import { modelRuleViolations } from './agent-model-rules';
import { Agent } from './entities/agent.entity';

type RuleFields = Pick<
  Agent,
  | 'transferEnabled'
  | 'transferNumber'
  | 'screenerHandlingEnabled'
  | 'voicemailDetectionEnabled'
  | 'turnTaking'
  | 'spokenLanguages'
  | 'voiceId'
  | 'fallbackVoiceIds'
  | 'transcriber'
  | 'fallbackTranscriber'
  | 'id'
  | 'handoffs'
  | 'model'
  | 'fallbackModels'
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
  problems.push(...speechProblems(agent));
  problems.push(...handoffProblems(agent));
  problems.push(...modelRuleViolations(agent));
  return problems;
}

/** A destination is named once (its tool's name) and is another agent. */
function handoffProblems(agent: RuleFields): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const names = agent.handoffs.map((h) => h.name);
  agent.handoffs.forEach((h, i) => {
    if (names.indexOf(h.name) !== i)
      problems.push({ field: `handoffs.${i}.name`, message: `handoffs.${i}.name repeats ${h.name}` });
    if (h.agent_id === agent.id)
      problems.push({
        field: `handoffs.${i}.agent_id`,
        message: `handoffs.${i}.agent_id is this agent: an agent does not hand off to itself`,
      });
  });
  return problems;
}

/**
 * A transcriber hears only the agent's languages; a fallback voice is another voice than the agent's; a
 * fallback transcriber backs up a chosen one and differs from it (the same provider and model would fail alike).
 */
function speechProblems(agent: RuleFields): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const spoken: string[] = agent.spokenLanguages.length
    ? agent.spokenLanguages
    : [...DEFAULT_SPOKEN_LANGUAGES];
  const languagesProblem = (field: string, t: TranscriberSettings | null) => {
    const stray = (t?.languages ?? []).filter((l) => !spoken.includes(l));
    if (stray.length) {
      problems.push({
        field: `${field}.languages`,
        message: `${field}.languages may hold only the agent's spoken_languages (${spoken.join(', ')}); not ${stray.join(', ')}`,
      });
    }
  };
  languagesProblem('transcriber', agent.transcriber);
  languagesProblem('fallback_transcriber', agent.fallbackTranscriber);
  if (agent.fallbackTranscriber && !agent.transcriber) {
    problems.push({
      field: 'fallback_transcriber',
      message:
        'fallback_transcriber needs a transcriber to back up (set transcriber too, or leave both null)',
    });
  } else if (
    agent.fallbackTranscriber &&
    agent.transcriber &&
    agent.fallbackTranscriber.provider === agent.transcriber.provider &&
    (agent.fallbackTranscriber.model ?? null) === (agent.transcriber.model ?? null)
  ) {
    problems.push({
      field: 'fallback_transcriber',
      message: 'fallback_transcriber must differ from transcriber (another provider or model)',
    });
  }
  const self = agent.fallbackVoiceIds.indexOf(agent.voiceId);
  if (self >= 0) {
    problems.push({
      field: 'fallback_voice_ids',
      message: `fallback_voice_ids[${self}] is the agent's own voice_id; a fallback must be another voice`,
    });
  }
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
