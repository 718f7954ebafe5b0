import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { AGENT_MODEL_PROVIDERS, type AgentModelProvider } from '@vap/messages';

/** How an account can use a catalog model, best first. */
export const MODEL_AVAILABILITIES = ['offline', 'account_key', 'platform'] as const;
export type ModelAvailability = (typeof MODEL_AVAILABILITIES)[number];

export class ModelCapabilitiesDto {
  @ApiProperty({ description: 'The model calls tools (functions, transfers, handoffs) during a call' })
  tools: boolean;

  @ApiProperty({
    description: 'Replies stream token by token (the first sentence is spoken while it writes)',
  })
  streaming: boolean;

  @ApiProperty({
    description:
      'A speech-to-speech model (OpenAI Realtime, Gemini Live): it hears and speaks itself, in place of the ' +
      "agent's transcriber and voice",
  })
  speech_to_speech: boolean;

  @ApiProperty({
    type: [String],
    example: ['en', 'hi'],
    description: 'spoken_languages codes the provider documents the model for; empty: any language',
  })
  languages: string[];
}

export class ModelParameterBoundsDto {
  @ApiProperty({ example: 0 })
  temperature_min: number;

  @ApiProperty({ example: 2 })
  temperature_max: number;

  @ApiProperty({ example: 16384, description: 'Largest max_tokens the model accepts' })
  max_tokens_max: number;
}

export class ModelCatalogEntryDto {
  @ApiProperty({ enum: AGENT_MODEL_PROVIDERS })
  provider: AgentModelProvider;

  @ApiProperty({ example: 'Anthropic', description: 'How people name the provider' })
  provider_label: string;

  @ApiProperty({ example: 'claude-haiku-4-5', description: "The provider's model id" })
  model: string;

  @ApiProperty({ example: 'Claude 3.5 Haiku' })
  label: string;

  @ApiProperty({
    example: false,
    description:
      'The provider takes any model id of the right shape (^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$), not only the ' +
      'ones listed: Azure OpenAI deployments are named by their account, OpenRouter hosts hundreds, a custom ' +
      'server serves what it serves. This card then describes what the platform takes such a model to do',
  })
  any_model: boolean;

  @ApiPropertyOptional({
    type: [String],
    example: ['alloy', 'verse'],
    description:
      'speech_to_speech models only: the provider voices an agent’s model.voice may name (omitted: the model’s own default)',
  })
  voices?: string[];

  @ApiProperty({ type: ModelCapabilitiesDto })
  capabilities: ModelCapabilitiesDto;

  @ApiProperty({ example: 200000, description: 'Tokens of context the model takes' })
  context_window: number;

  @ApiProperty({ type: ModelParameterBoundsDto })
  parameters: ModelParameterBoundsDto;

  @ApiProperty({
    enum: MODEL_AVAILABILITIES,
    nullable: true,
    description:
      'How this account can use it: `offline` (the offline engine, always), `account_key` (its own key for the ' +
      "provider), `platform` (the platform's key for the account's tier); null: it cannot (unavailable_reason says " +
      'which key it needs)',
  })
  availability: ModelAvailability | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the account cannot use it and what to do, when availability is null; else null',
  })
  unavailable_reason: string | null;
}

export class ModelCatalogDto {
  @ApiProperty({ type: [ModelCatalogEntryDto] })
  models: ModelCatalogEntryDto[];
}

/** `true` and `false` of a query string as booleans (the other values are left for the check to refuse). */
const queryBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** GET /models query: filters. */
export class ListModelsQueryDto {
  @ApiPropertyOptional({ enum: AGENT_MODEL_PROVIDERS, description: 'Only this provider’s models' })
  @IsOptional()
  @IsIn(AGENT_MODEL_PROVIDERS as unknown as string[], {
    message: `provider must be one of ${AGENT_MODEL_PROVIDERS.join(', ')}`,
  })
  provider?: AgentModelProvider;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only models this account can use now (availability not null); false or omitted: all',
  })
  @IsOptional()
  @IsBoolean({ message: 'available must be true or false' })
  @Transform(queryBoolean)
  available?: boolean;
}
