import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  AGENT_MODEL_PROVIDERS,
  AgentModelProvider,
  AgentModelSettings,
  MAX_FALLBACK_MODELS,
} from '@vap/messages';

/**
 * The shape of a model id: the catalog's own ids, and any id of an any-model provider (Azure OpenAI deployments,
 * OpenRouter, a custom server).
 */
export const AGENT_MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;
/** A speech-to-speech provider voice's name (alloy, Puck). */
export const AGENT_MODEL_VOICE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The widest bounds any catalog model has; each model's own (GET /models `parameters`) are checked on top. */
export const AgentModelLimits = {
  temperatureMin: 0,
  temperatureMax: 2,
  maxTokensMin: 1,
  maxTokensMax: 1_000_000,
  topPMin: 0,
  topPMax: 1,
} as const;

export const MODEL_DESCRIPTION =
  'The model the agent thinks with: a provider and one of its models from GET /models, with its parameters ' +
  'within that model’s bounds. The account must be able to use it (its own key for the provider, or the ' +
  'platform’s for its tier; custom: its own model server), else 400 naming the key it needs. null (the ' +
  'default): the deployment’s default model (LLM_BASE_URL’s server when the operator set one, else the offline ' +
  'engine). Replaced whole on update.';

export const FALLBACK_MODELS_DESCRIPTION =
  `Models to fall back to, in order, when a turn’s model fails before any of its reply was spoken: at most ` +
  `${MAX_FALLBACK_MODELS}, each as model, distinct from each other and from model, all speech-to-speech or none; ` +
  'needs model set. null or [] = none. Replaced whole on update.';

const PROVIDER_DOC = {
  enum: AGENT_MODEL_PROVIDERS,
  example: 'anthropic',
  description:
    'offline (the platform’s engine, no key), a cloud model provider (needs the account’s key or the platform’s ' +
    'for its tier), or custom (the account’s own model server, a provider credential of provider custom)',
} as const;
const MODEL_ID_DOC = {
  example: 'claude-haiku-4-5',
  maxLength: 128,
  description:
    'A model of the provider’s catalog (GET /models); providers marked any_model take any id of this shape ' +
    '(Azure OpenAI: the deployment’s name)',
} as const;
const TEMPERATURE_DOC = {
  type: Number,
  nullable: true,
  minimum: AgentModelLimits.temperatureMin,
  maximum: AgentModelLimits.temperatureMax,
  example: 0.7,
  description: 'Within the model’s temperature_min..temperature_max; null: the provider’s default',
} as const;
const MAX_TOKENS_DOC = {
  type: Number,
  nullable: true,
  minimum: AgentModelLimits.maxTokensMin,
  example: 300,
  description: 'Longest reply, 1..the model’s max_tokens_max; null: the provider’s default',
} as const;
const TOP_P_DOC = {
  type: Number,
  nullable: true,
  minimum: AgentModelLimits.topPMin,
  maximum: AgentModelLimits.topPMax,
  example: 1,
  description: 'Nucleus sampling, 0..1; null: the provider’s default',
} as const;
const VOICE_DOC = {
  type: String,
  nullable: true,
  example: null,
  description:
    'speech_to_speech models only: the provider voice that speaks, one of the model’s voices in GET /models; ' +
    'null: the model’s default',
} as const;

/** An agent's model (or one of its fallbacks) as a request gives it. */
export class AgentModelInputDto {
  @ApiProperty(PROVIDER_DOC)
  @IsDefined({ message: 'provider is required' })
  @IsIn(AGENT_MODEL_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${AGENT_MODEL_PROVIDERS.join(', ')}`,
  })
  provider: AgentModelProvider;

  @ApiProperty(MODEL_ID_DOC)
  @IsDefined({ message: 'model is required' })
  @Matches(AGENT_MODEL_ID_PATTERN, {
    message:
      'model must be a model id: up to 128 letters, digits and . _ : / @ -, starting with a letter or digit',
  })
  @MaxLength(128, { message: 'model must be at most 128 characters' })
  @IsString({ message: 'model must be a string' })
  model: string;

  @ApiPropertyOptional(TEMPERATURE_DOC)
  @IsOptional()
  @Min(AgentModelLimits.temperatureMin, { message: 'temperature must be from 0 to 2' })
  @Max(AgentModelLimits.temperatureMax, { message: 'temperature must be from 0 to 2' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'temperature must be a number or null' })
  temperature?: number | null;

  @ApiPropertyOptional(MAX_TOKENS_DOC)
  @IsOptional()
  @Min(AgentModelLimits.maxTokensMin, { message: 'max_tokens must be at least 1' })
  @Max(AgentModelLimits.maxTokensMax, {
    message: `max_tokens must be at most ${AgentModelLimits.maxTokensMax}`,
  })
  @IsInt({ message: 'max_tokens must be an integer or null' })
  max_tokens?: number | null;

  @ApiPropertyOptional(TOP_P_DOC)
  @IsOptional()
  @Min(AgentModelLimits.topPMin, { message: 'top_p must be from 0 to 1' })
  @Max(AgentModelLimits.topPMax, { message: 'top_p must be from 0 to 1' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'top_p must be a number or null' })
  top_p?: number | null;

  @ApiPropertyOptional(VOICE_DOC)
  @IsOptional()
  @Matches(AGENT_MODEL_VOICE_PATTERN, { message: 'voice must be a voice name of the model (GET /models)' })
  @IsString({ message: 'voice must be a string or null' })
  voice?: string | null;
}

/** An agent's model as its record answers it: every parameter present, null for the provider's default. */
export class AgentModelDto {
  @ApiProperty(PROVIDER_DOC)
  provider: AgentModelProvider;

  @ApiProperty(MODEL_ID_DOC)
  model: string;

  @ApiProperty(TEMPERATURE_DOC)
  temperature: number | null;

  @ApiProperty(MAX_TOKENS_DOC)
  max_tokens: number | null;

  @ApiProperty(TOP_P_DOC)
  top_p: number | null;

  @ApiProperty(VOICE_DOC)
  voice: string | null;
}

/** The stored form of a model a request gave: every field, null where the request left a parameter out. */
export function normalizeAgentModel(input: AgentModelInputDto): AgentModelDto {
  return {
    provider: input.provider,
    model: input.model,
    temperature: input.temperature ?? null,
    max_tokens: input.max_tokens ?? null,
    top_p: input.top_p ?? null,
    voice: input.voice ?? null,
  };
}

/** The snapshot's form (camelCase, only the parameters set): what agents.model.plan and the call read. */
export function agentModelSettingsOf(model: AgentModelDto): AgentModelSettings {
  const out: AgentModelSettings = { provider: model.provider, model: model.model };
  if (model.temperature !== null && model.temperature !== undefined) out.temperature = model.temperature;
  if (model.max_tokens !== null && model.max_tokens !== undefined) out.maxTokens = model.max_tokens;
  if (model.top_p !== null && model.top_p !== undefined) out.topP = model.top_p;
  if (model.voice !== null && model.voice !== undefined) out.voice = model.voice;
  return out;
}

/** Two entries naming the same provider's same model (a fallback must be another model). */
export function sameAgentModel(
  a: Pick<AgentModelDto, 'provider' | 'model'>,
  b: Pick<AgentModelDto, 'provider' | 'model'>,
): boolean {
  return a.provider === b.provider && a.model === b.model;
}
