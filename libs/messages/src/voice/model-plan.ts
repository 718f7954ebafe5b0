// The model an agent thinks with: the providers an agent may name, its model settings as the agent snapshot keeps
// them, and the plan the agents service resolves for a call (which key answers, who pays).

/**
 * Cloud model providers: a key is stored per account (provider credentials) or set for the platform per tier.
 * `openai` is also a speech provider: one OpenAI key serves both.
 */
export const MODEL_PROVIDERS = [
  'openai',
  'anthropic',
  'google',
  'azure_openai',
  'groq',
  'together',
  'fireworks',
  'openrouter',
  'deepseek',
  'mistral',
] as const;
export type ModelProviderName = (typeof MODEL_PROVIDERS)[number];

/**
 * What an agent's `model.provider` may name: the offline engine (deterministic, no network, the development
 * default), a cloud provider, or `custom`: the account's own OpenAI-compatible model server (a provider
 * credential of provider `custom` says where it is).
 */
export const AGENT_MODEL_PROVIDERS = ['offline', ...MODEL_PROVIDERS, 'custom'] as const;
export type AgentModelProvider = (typeof AGENT_MODEL_PROVIDERS)[number];

/**
 * Who wrote an agent line, as a transcript line and a call report it: an agent's model provider, or `platform`:
 * the deployment's default model (LLM_BASE_URL's server), which answers agents that chose no model when it is set
 * (else the offline engine does, reported as `offline`).
 */
export const ANSWERING_MODEL_PROVIDERS = [...AGENT_MODEL_PROVIDERS, 'platform'] as const;
export type AnsweringModelProvider = (typeof ANSWERING_MODEL_PROVIDERS)[number];

/**
 * Providers whose speech-to-speech models (OpenAI Realtime, Gemini Live) hear the caller and speak themselves, in
 * place of the transcriber and the voice: a transcript line such a model wrote names its provider as what heard the
 * caller and spoke the line too (providers.stt and providers.tts).
 */
export const SPEECH_TO_SPEECH_PROVIDERS = ['openai', 'google'] as const;
export type SpeechToSpeechProvider = (typeof SPEECH_TO_SPEECH_PROVIDERS)[number];

/** Fallback models an agent may list (tried in order when a turn's model fails before any of it was spoken). */
export const MAX_FALLBACK_MODELS = 3;

/** An agent's model as the snapshot keeps it (the API's `model` / `fallback_models` items, camelCased). */
export interface AgentModelSettings {
  provider: AgentModelProvider;
  /** The provider's model id (Azure OpenAI: the deployment's name). */
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /** Speech-to-speech models: the provider's voice that speaks (e.g. OpenAI Realtime `alloy`, Gemini `Puck`). */
  voice?: string;
}

/** Who pays a provider for a call's model: the partner's own key, or the platform's. */
export type ModelPaidBy = 'account' | 'platform';

/**
 * A model key the voice, calls or campaigns service uses for one call: the partner's (unsealed for the call by
 * the agents service, never stored elsewhere) or the platform's. Never logged.
 */
export interface ModelCredential {
  provider: ModelProviderName | 'custom';
  /** Empty for a custom server that takes no bearer token. */
  apiKey: string;
  /** The provider's API base (the platform's setting; Azure OpenAI's with the key's resource in it; custom: the partner's server). */
  baseUrl: string;
  /** Azure OpenAI: the resource name the base URL was made with. */
  region?: string;
  paidBy: ModelPaidBy;
  /** Custom servers: the HMAC key requests are signed with (x-vap-signature, as custom functions). */
  signingSecret?: string;
}

/** One model a call may think with, first the agent's, then its fallbacks. */
export interface ModelPlanEntry extends AgentModelSettings {
  /** The catalog says it is a speech-to-speech model (OpenAI Realtime, Gemini Live): it replaces STT, LLM and TTS. */
  speechToSpeech: boolean;
  /** Absent for the offline engine. */
  credential?: ModelCredential;
}

/**
 * agents.model.plan: the models a call (or a test run, or post-call analysis) runs with, from the agent's
 * snapshot and the account's keys as they are now. `models` empty: the agent chose none (or none is usable any
 * more); the deployment's default model answers.
 */
export interface ModelPlanRequest {
  /** For logs only (a test run or analysis may send its own id). */
  callId?: string;
  model: AgentModelSettings | null;
  fallbackModels: AgentModelSettings[];
}

export interface ModelPlan {
  models: ModelPlanEntry[];
}

/** What one model reply cost, as the provider reported it. */
export interface ModelTokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A call's model use, per model that answered (as calls, session.completed and the ledger carry it). */
export interface ModelUsageEntry {
  provider: AnsweringModelProvider;
  model: string;
  paidBy: ModelPaidBy | null;
  inputTokens: number;
  outputTokens: number;
  /** Replies (turns and tool rounds) it wrote. */
  replies: number;
}
