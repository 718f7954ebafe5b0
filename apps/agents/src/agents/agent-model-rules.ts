import { AgentModelDto, sameAgentModel } from '@vap/api';
import { ErrorDetail } from '@vap/messages';
import { modelCard } from '@vap/llm';
import { modelProviderLabel } from '../provider-credentials/model-providers';

/** One of an agent's models with the names its problems use: `model`, or `fallback_models.1` / `fallback_models[1]`. */
export interface AgentModelEntry {
  /** The error detail's field prefix (the validation pipe's path). */
  field: string;
  /** How a message names it. */
  label: string;
  model: AgentModelDto;
}

/** The agent's model then its fallbacks, each with its names. */
export function agentModelEntries(agent: {
  model: AgentModelDto | null;
  fallbackModels: AgentModelDto[];
}): AgentModelEntry[] {
  return [
    ...(agent.model ? [{ field: 'model', label: 'model', model: agent.model }] : []),
    ...agent.fallbackModels.map((model, i) => ({
      field: `fallback_models.${i}`,
      label: `fallback_models[${i}]`,
      model,
    })),
  ];
}

/**
 * Rules between an agent's models, judged on the agent as it would be stored: fallbacks back up a model, each is
 * another model than the agent's and than the others, and all of them are of one kind (speech-to-speech or not:
 * a turn cannot move between a transcriber-and-voice chain and a model that hears and speaks itself).
 */
export function modelRuleViolations(agent: {
  model: AgentModelDto | null;
  fallbackModels: AgentModelDto[];
}): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!agent.model) {
    if (agent.fallbackModels.length)
      problems.push({
        field: 'fallback_models',
        message: 'fallback_models needs a model to back up (set model too, or leave fallback_models empty)',
      });
    return problems;
  }
  const main = agent.model;
  const mainKind = modelCard(main.provider, main.model)?.speechToSpeech;
  agent.fallbackModels.forEach((fallback, i) => {
    const field = `fallback_models.${i}.model`;
    if (sameAgentModel(fallback, main)) {
      problems.push({
        field,
        message: `fallback_models[${i}] is the agent's own model; a fallback must be another model`,
      });
      return;
    }
    const earlier = agent.fallbackModels.findIndex((f) => sameAgentModel(f, fallback));
    if (earlier < i) {
      problems.push({ field, message: `fallback_models[${i}] repeats fallback_models[${earlier}]` });
      return;
    }
    const kind = modelCard(fallback.provider, fallback.model)?.speechToSpeech;
    if (mainKind !== undefined && kind !== undefined && kind !== mainKind) {
      problems.push({
        field,
        message:
          `fallback_models[${i}] ${kind ? 'is' : 'is not'} a speech-to-speech model and model ` +
          `${mainKind ? 'is' : 'is not'}: an agent's models are all speech-to-speech or none`,
      });
    }
  });
  return problems;
}

/**
 * What the catalog says of one model an agent is given: the provider offers it (GET /models; any id of the right
 * shape for the providers that take any), and its parameters are within that model's own bounds.
 */
export function modelCatalogProblems({ field, label, model }: AgentModelEntry): ErrorDetail[] {
  const card = modelCard(model.provider, model.model);
  if (!card) {
    return [
      {
        field: `${field}.model`,
        message:
          model.provider === 'offline'
            ? `${label}.model must be offline for the offline engine`
            : `${label}.model is not a model of ${modelProviderLabel(model.provider)} (see GET /models)`,
      },
    ];
  }
  const problems: ErrorDetail[] = [];
  const { min, max } = card.temperature;
  if (model.temperature !== null && (model.temperature < min || model.temperature > max)) {
    problems.push({
      field: `${field}.temperature`,
      message: `${label}.temperature must be from ${min} to ${max} for ${card.id}`,
    });
  }
  if (model.max_tokens !== null && model.max_tokens > card.maxOutputTokens) {
    problems.push({
      field: `${field}.max_tokens`,
      message: `${label}.max_tokens must be at most ${card.maxOutputTokens} for ${card.id}`,
    });
  }
  if (model.voice !== null) {
    if (!card.speechToSpeech) {
      problems.push({
        field: `${field}.voice`,
        message: `${label}.voice applies only to speech-to-speech models; ${card.id} is not one`,
      });
    } else if (!(card.voices ?? []).includes(model.voice)) {
      problems.push({
        field: `${field}.voice`,
        message: `${label}.voice must be one of ${(card.voices ?? []).join(', ')} for ${card.id}`,
      });
    }
  }
  return problems;
}
