import type { VoiceCallContext } from '@vap/messages';
import type { TtsVoice } from '@vap/speech';

/** What speaks when the agent's voice is not in the partner's catalog (retired, or a tier the partner lost). */
export const OFFLINE_VOICE_ID = 'offline';

/** The offline voice in the agent's first spoken language (English when it lists none). */
export function fallbackVoice(context: VoiceCallContext): TtsVoice {
  return {
    providerVoiceId: OFFLINE_VOICE_ID,
    model: OFFLINE_VOICE_ID,
    speed: 1,
    volume: 1,
    language: context.agent.spokenLanguages[0] ?? 'en',
  };
}
