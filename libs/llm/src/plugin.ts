// A model provider as a plugin (beside the speech ones in libs/speech): its adapters, its models and what they
// can do as data, and a cheap key check. The registry (model-registry.ts) holds one per provider.
import type { ModelProviderName, SpokenLanguage } from '@vap/messages';
import type { KeyCheck } from './key-check';
import type { LanguageModel } from './language-model';

/** One model of a provider's catalog, as its provider documents it. */
export interface ModelCard {
  /** The provider's model id (what requests name). */
  id: string;
  label: string;
  contextWindow: number;
  /** Largest max_tokens it accepts. */
  maxOutputTokens: number;
  /** Calls tools (functions) while streaming. */
  tools: boolean;
  /** Hears and speaks itself (OpenAI Realtime, Gemini Live), in place of the transcriber and the voice. */
  speechToSpeech: boolean;
  /** spoken_languages codes the provider documents it for; empty: any. */
  languages: readonly SpokenLanguage[];
  /** The temperature range it accepts. */
  temperature: { min: number; max: number };
  /** Speech-to-speech models: the provider's voices an agent's `model.voice` may name. */
  voices?: readonly string[];
}

/** What an adapter needs for one agent's model on one call (or test run, or analysis). */
export interface ModelConfig {
  /** The provider's API base (the platform's; Azure OpenAI's with the resource in it; custom: the partner's). */
  baseUrl: string;
  /** Empty for a custom server that takes no bearer token. */
  apiKey: string;
  model: string;
  /** Longest silence allowed before the first byte and between streamed chunks, in ms. */
  timeoutMs: number;
  /** Azure OpenAI: the resource the base URL names. */
  region?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /** Custom servers: the HMAC key each request is signed with (x-vap-timestamp / x-vap-signature). */
  signingSecret?: string;
  /**
   * Custom servers: the partner's URL may be on a private or loopback address (development and tests only).
   * Unset: the platform switch WEBHOOK_ALLOW_PRIVATE_NETWORKS, as for custom functions.
   */
  allowPrivateNetworks?: boolean;
}

/** A key to check: the credential and where the provider's API is. */
export type ModelKeyCheckRequest = Pick<
  ModelConfig,
  'apiKey' | 'baseUrl' | 'region' | 'timeoutMs' | 'signingSecret' | 'allowPrivateNetworks'
>;

/** One model provider: its adapter, its catalog and how its keys are checked. */
export interface ModelPlugin {
  readonly name: ModelProviderName | 'custom';
  /** How people name it (Anthropic, Google Gemini, Azure OpenAI). */
  readonly label: string;
  /** The public API's base URL, used when no setting overrides it. Azure OpenAI's holds `{region}` (the resource). */
  readonly defaultBaseUrl: string;
  /** Keys belong to a resource the credential names (Azure OpenAI: `region` is the resource name). */
  readonly needsRegion?: boolean;
  /** Its models, as the catalog offers them. */
  readonly models: readonly ModelCard[];
  /**
   * Any model id of the right shape is accepted, with `models[0]`'s card for what it can do (Azure OpenAI
   * deployments are named by the account; a custom server serves what it serves; OpenRouter hosts hundreds).
   */
  readonly anyModel?: boolean;
  /** The chat adapter (streamed replies with tools, and post-call extraction and analysis). */
  create(config: ModelConfig): LanguageModel;
  /** One cheap authenticated request; never throws. */
  checkKey(request: ModelKeyCheckRequest, signal?: AbortSignal): Promise<KeyCheck>;
}
