import { IsOptional, Length, Matches, ValidateIf } from 'class-validator';
import { IntSetting } from '@vap/runtime';

const httpUrl = /^https?:\/\/[^\s/]+(\/[^\s]*)?$/;
/** A comma list of voice tiers (`premium,enterprise`). */
const tierList = /^\s*(standard|premium|enterprise)\s*(,\s*(standard|premium|enterprise)\s*)*$/;
const TIERS_MESSAGE = (name: string) =>
  `${name} must be a comma-separated list of standard, premium and enterprise`;
const URL_MESSAGE = (name: string) => `${name} must be an http(s) URL`;
/** Provider keys are opaque tokens; bounded so a pasted file is refused at boot. */
const KEY_MESSAGE = (name: string) => `${name} must be 8 to 512 characters`;

/**
 * The platform's own model provider keys (agents service), as SpeechConfig is for speech: a key the platform pays
 * for serves accounts whose voice tier the provider's TIERS list names, when the account has no key of its own for
 * that provider (POST /provider-credentials). BASE_URL points a provider at another host (a test's fake, a proxy);
 * unset, the provider's public API. Model use on the platform's keys is within the minute price (recorded on the
 * call, never charged apart). Keys are never logged; a refused value is named, never shown.
 */
export class ModelsConfig {
  /** The platform's OpenAI key for models (Chat Completions; Realtime for speech-to-speech agents); unset: none. An account's own OpenAI key serves both its speech and its models. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_OPENAI_API_KEY') })
  MODEL_OPENAI_API_KEY?: string;

  /**
   * OpenAI's API base for models, for the platform's and the partners' keys alike (speech reads SPEECH_OPENAI_BASE_URL).
   * @default the provider's public API (https://api.openai.com/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_OPENAI_BASE_URL') })
  MODEL_OPENAI_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's OpenAI key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_OPENAI_TIERS') })
  MODEL_OPENAI_TIERS?: string;
  /** The platform's Anthropic key (Messages API); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_ANTHROPIC_API_KEY') })
  MODEL_ANTHROPIC_API_KEY?: string;

  /**
   * Anthropic's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_ANTHROPIC_BASE_URL') })
  MODEL_ANTHROPIC_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Anthropic key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_ANTHROPIC_TIERS') })
  MODEL_ANTHROPIC_TIERS?: string;
  /** The platform's Gemini API key (generateContent, Gemini Live); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_GOOGLE_API_KEY') })
  MODEL_GOOGLE_API_KEY?: string;

  /**
   * Google Gemini's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_GOOGLE_BASE_URL') })
  MODEL_GOOGLE_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Google Gemini key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_GOOGLE_TIERS') })
  MODEL_GOOGLE_TIERS?: string;
  /** The platform's Azure OpenAI resource key (its resource in MODEL_AZURE_OPENAI_RESOURCE); unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_AZURE_OPENAI_API_KEY') })
  MODEL_AZURE_OPENAI_API_KEY?: string;

  /**
   * Azure OpenAI's endpoint; `{region}` in it becomes the resource name (the platform's, or the one a partner's key names).
   * @default https://{region}.openai.azure.com
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_AZURE_OPENAI_BASE_URL') })
  MODEL_AZURE_OPENAI_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Azure OpenAI key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_AZURE_OPENAI_TIERS') })
  MODEL_AZURE_OPENAI_TIERS?: string;
  /** The Azure OpenAI resource of the platform's key (https://{resource}.openai.azure.com); required with that key. */
  @ValidateIf((config: ModelsConfig) => config.MODEL_AZURE_OPENAI_API_KEY !== undefined)
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/, {
    message:
      'MODEL_AZURE_OPENAI_RESOURCE must be an Azure OpenAI resource name (lower-case letters, digits and hyphens, ' +
      'e.g. acme-openai) when MODEL_AZURE_OPENAI_API_KEY is set',
  })
  MODEL_AZURE_OPENAI_RESOURCE?: string;
  /** The platform's Groq key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_GROQ_API_KEY') })
  MODEL_GROQ_API_KEY?: string;

  /**
   * Groq's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://api.groq.com/openai/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_GROQ_BASE_URL') })
  MODEL_GROQ_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Groq key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_GROQ_TIERS') })
  MODEL_GROQ_TIERS?: string;
  /** The platform's Together AI key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_TOGETHER_API_KEY') })
  MODEL_TOGETHER_API_KEY?: string;

  /**
   * Together AI's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://api.together.xyz/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_TOGETHER_BASE_URL') })
  MODEL_TOGETHER_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Together AI key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_TOGETHER_TIERS') })
  MODEL_TOGETHER_TIERS?: string;
  /** The platform's Fireworks AI key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_FIREWORKS_API_KEY') })
  MODEL_FIREWORKS_API_KEY?: string;

  /**
   * Fireworks AI's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://api.fireworks.ai/inference/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_FIREWORKS_BASE_URL') })
  MODEL_FIREWORKS_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Fireworks AI key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_FIREWORKS_TIERS') })
  MODEL_FIREWORKS_TIERS?: string;
  /** The platform's OpenRouter key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_OPENROUTER_API_KEY') })
  MODEL_OPENROUTER_API_KEY?: string;

  /**
   * OpenRouter's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://openrouter.ai/api/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_OPENROUTER_BASE_URL') })
  MODEL_OPENROUTER_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's OpenRouter key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_OPENROUTER_TIERS') })
  MODEL_OPENROUTER_TIERS?: string;
  /** The platform's DeepSeek key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_DEEPSEEK_API_KEY') })
  MODEL_DEEPSEEK_API_KEY?: string;

  /**
   * DeepSeek's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://api.deepseek.com/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_DEEPSEEK_BASE_URL') })
  MODEL_DEEPSEEK_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's DeepSeek key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_DEEPSEEK_TIERS') })
  MODEL_DEEPSEEK_TIERS?: string;
  /** The platform's Mistral AI key; unset: none. */
  @IsOptional()
  @Length(8, 512, { message: KEY_MESSAGE('MODEL_MISTRAL_API_KEY') })
  MODEL_MISTRAL_API_KEY?: string;

  /**
   * Mistral AI's API base, for the platform's and the partners' keys alike.
   * @default the provider's public API (https://api.mistral.ai/v1)
   */
  @IsOptional()
  @Matches(httpUrl, { message: URL_MESSAGE('MODEL_MISTRAL_BASE_URL') })
  MODEL_MISTRAL_BASE_URL?: string;

  /**
   * Voice tiers whose accounts may use the platform's Mistral AI key (comma list of standard, premium, enterprise).
   * @default every tier
   */
  @IsOptional()
  @Matches(tierList, { message: TIERS_MESSAGE('MODEL_MISTRAL_TIERS') })
  MODEL_MISTRAL_TIERS?: string;
  /** Deadline of the live check of a partner's model key (POST and PUT /provider-credentials). */
  @IntSetting({ min: 500, max: 20_000 })
  MODEL_KEY_CHECK_TIMEOUT_MS: number = 5000;
}
