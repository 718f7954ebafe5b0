import { Subjects, VoiceCallContext, VoiceConfiguration } from '@vap/messages';
import type { RpcClient } from '@vap/messaging';
import type { TtsVoice } from '@vap/speech';

/** What speaks when the agent's voice is not in the partner's catalog (retired, or a tier the partner lost). */
export const OFFLINE_VOICE_ID = 'offline';

/** The voice to synthesize with: the catalog's entry for the agent's voice_id, as the partner sees the catalog. */
export function ttsVoiceOf(voice: VoiceConfiguration): TtsVoice {
  return {
    providerVoiceId: voice.provider_voice_id,
    model: voice.model_name,
    speed: voice.speed,
    volume: voice.volume,
    language: voice.language,
  };
}

/** The offline voice in the agent's first spoken language (English when it lists none). */
export function fallbackVoice(context: VoiceCallContext): TtsVoice {
  return {
    providerVoiceId: OFFLINE_VOICE_ID,
    model: OFFLINE_VOICE_ID,
    speed: 1,
    volume: 1,
    language: context.agent.spoken_languages[0] ?? 'en',
  };
}

/**
 * Looks the agent's voice up in the catalog the partner is entitled to (agents.voice_configuration.list,
 * ids `vc_<voice_id>`); a voice that is not there falls back to the offline voice rather than failing the call.
 */
export async function resolveAgentVoice(rpc: RpcClient, context: VoiceCallContext): Promise<TtsVoice> {
  const { voice_configurations } = await rpc.request(
    Subjects.agents.voiceConfigurationList,
    context.partnerId,
    {},
  );
  const wanted = `vc_${context.agent.voice_id}`;
  const voice = voice_configurations.find((v) => v.id === wanted);
  return voice ? ttsVoiceOf(voice) : fallbackVoice(context);
}
