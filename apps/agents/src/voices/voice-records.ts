import { AgentVoiceDto, BackgroundAudioDto, VoiceConfigurationDto, VoiceSummaryDto } from '@vap/api';
import { AgentDefaults, VoiceAvailability, VoiceConfigurationId } from '@vap/messages';
import { BackgroundAudio } from './entities/background-audio.entity';
import { Voice } from './entities/voice.entity';

/** The catalog fields every view of a voice shows (the partner's configuration, the operator's catalog). */
export function voiceCatalogFields(v: Voice) {
  return {
    id: VoiceConfigurationId.format(v.id),
    display_name: v.displayName,
    description: v.description,
    provider: v.provider,
    model_name: v.modelName,
    tier: v.tier,
    provider_voice_id: v.providerVoiceId,
    speed: v.speed,
    volume: v.volume,
    language: v.language,
    gender: v.gender,
    preview_text: v.previewText,
  };
}

export function toVoiceConfigurationDto(v: Voice, availability: VoiceAvailability): VoiceConfigurationDto {
  return {
    ...voiceCatalogFields(v),
    status: 'active',
    availability,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}

export function toAgentVoiceDto(v: Voice, availability: VoiceAvailability): AgentVoiceDto {
  return {
    voice_id: v.id,
    name: v.displayName,
    gender: v.gender,
    language: v.language,
    provider: v.provider,
    model: v.modelName,
    tier: v.tier,
    description: v.description,
    availability,
  };
}

export function toVoiceSummaryDto(v: Voice): VoiceSummaryDto {
  return {
    id: v.id,
    display_name: v.displayName,
    gender: v.gender,
    language: v.language,
    provider: v.provider,
  };
}

export function toBackgroundAudioDto(a: BackgroundAudio): BackgroundAudioDto {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    category: a.category,
    duration_secs: a.durationSecs,
    default_volume: AgentDefaults.backgroundAudioVolume,
  };
}
