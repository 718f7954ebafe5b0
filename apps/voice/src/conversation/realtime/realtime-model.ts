// A speech-to-speech model a call may run on: one of the model chain (so the call's usage, its transcript and a
// handoff's models treat it as any model), with what its session needs (the key and base URL the plan gave, the
// agent's voice and parameters).

import type { ModelPlan, ModelPlanEntry, TurnProviders } from '@vap/messages';
import {
  isRealtimeProvider,
  SpeechToSpeechOnlyModel,
  type RealtimeProviderName,
  type RealtimeSessionConfig,
} from '@vap/llm';
import type { AgentModel } from '../model-round';

/** Provider names as people read them, for the logs and errors. */
const LABELS: Record<RealtimeProviderName, string> = { openai: 'OpenAI Realtime', google: 'Gemini Live' };

export interface RealtimeModel extends AgentModel {
  provider: RealtimeProviderName;
  /** What the session is opened with, besides the call's instructions, tools and audio. */
  session: Pick<
    RealtimeSessionConfig,
    'baseUrl' | 'apiKey' | 'model' | 'voice' | 'temperature' | 'maxTokens'
  >;
}

export function isRealtimeModel(model: AgentModel): model is RealtimeModel {
  return 'session' in model && isRealtimeProvider(model.provider);
}

/** A plan entry as a speech-to-speech model, or why it cannot be one. */
export function realtimeModelOf(entry: ModelPlanEntry): RealtimeModel | string {
  if (!entry.speechToSpeech) return 'not a speech-to-speech model';
  if (!isRealtimeProvider(entry.provider)) return `no speech-to-speech client for ${entry.provider}`;
  const credential = entry.credential;
  if (!credential) return 'the plan gives no key for it';
  return {
    provider: entry.provider,
    model: entry.model,
    paidBy: credential.paidBy,
    llm: new SpeechToSpeechOnlyModel(entry.model, LABELS[entry.provider]),
    session: {
      baseUrl: credential.baseUrl,
      apiKey: credential.apiKey,
      model: entry.model,
      ...(entry.voice ? { voice: entry.voice } : {}),
      ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
      ...(entry.maxTokens !== undefined ? { maxTokens: entry.maxTokens } : {}),
    },
  };
}

/**
 * The speech-to-speech models of a plan, in its order (an agent's models are all of one kind, so these are the
 * agent's own and its fallbacks); entries that cannot run are told to `onSkipped` and left out.
 */
export function realtimeModelsOf(
  plan: ModelPlan,
  onSkipped?: (entry: string, reason: string) => void,
): RealtimeModel[] {
  const models: RealtimeModel[] = [];
  for (const entry of plan.models) {
    if (!entry.speechToSpeech) continue;
    const model = realtimeModelOf(entry);
    if (typeof model === 'string') onSkipped?.(`${entry.provider}:${entry.model}`, model);
    else models.push(model);
  }
  return models;
}

/** How a provider is named in logs. */
export function realtimeLabel(model: RealtimeModel): string {
  return `${LABELS[model.provider]} ${model.model}`;
}

/**
 * What heard and spoke a line the speech-to-speech model wrote, as the transcript names them: the model's own
 * provider (it hears the caller and speaks itself; OpenAI's transcription of the caller is OpenAI's too).
 */
export function realtimeSpeechProviders(provider: RealtimeProviderName): Pick<TurnProviders, 'stt' | 'tts'> {
  return { stt: provider, tts: provider };
}
