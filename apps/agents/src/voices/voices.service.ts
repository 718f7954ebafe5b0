import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AgentVoiceListDto, BackgroundAudioListDto, VoiceConfigurationListDto } from '@vap/api';
import { entitledVoiceTiers, ErrorDetail, isUuid, VoiceAvailability } from '@vap/messages';
import { SpeechAccess, unavailableReason } from '../provider-credentials/speech-access';
import { BackgroundAudio } from './entities/background-audio.entity';
import { Voice } from './entities/voice.entity';
import { toAgentVoiceDto, toBackgroundAudioDto, toVoiceConfigurationDto } from './voice-records';

export type VoiceCheck = { voice: Voice; problem?: undefined } | { voice?: undefined; problem: ErrorDetail };

/** A catalog voice an account can use, and how. */
export interface UsableVoice {
  voice: Voice;
  availability: VoiceAvailability;
}

/**
 * The voice and background-audio catalog, as far as a partner's tier entitles it and its speech providers are
 * usable (the account's keys, the platform's for its tier, or the deployment's offline stand-in).
 */
@Injectable()
export class VoicesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: SpeechAccess,
  ) {}

  /** Active voices of the tiers the given tier includes, cheapest tier first. */
  private entitledVoices(tier: string): Promise<Voice[]> {
    return this.dataSource
      .getRepository(Voice)
      .createQueryBuilder('v')
      .where('v.status = :status', { status: 'active' })
      .andWhere('v.tier IN (:...tiers)', { tiers: entitledVoiceTiers(tier) })
      .orderBy(`array_position(ARRAY['standard','premium','enterprise'], v.tier)`)
      .addOrderBy('v.language')
      .addOrderBy('v.display_name')
      .getMany();
  }

  /** The entitled voices the account can speak with, each with how. */
  private async usableVoices(partnerId: string, tier: string): Promise<UsableVoice[]> {
    const [voices, account] = await Promise.all([
      this.entitledVoices(tier),
      this.access.accountOf(partnerId, tier),
    ]);
    return voices.flatMap((voice) => {
      const availability = this.access.availability(voice.provider, account);
      return availability ? [{ voice, availability }] : [];
    });
  }

  async voiceConfigurations(partnerId: string, tier: string): Promise<VoiceConfigurationListDto> {
    const usable = await this.usableVoices(partnerId, tier);
    return { voice_configurations: usable.map((u) => toVoiceConfigurationDto(u.voice, u.availability)) };
  }

  async agentVoices(partnerId: string, tier: string): Promise<AgentVoiceListDto> {
    const usable = await this.usableVoices(partnerId, tier);
    return { voices: usable.map((u) => toAgentVoiceDto(u.voice, u.availability)) };
  }

  async backgroundAudio(): Promise<BackgroundAudioListDto> {
    const rows = await this.dataSource
      .getRepository(BackgroundAudio)
      .find({ where: { status: 'active' }, order: { name: 'ASC' } });
    return { background_audio: rows.map(toBackgroundAudioDto) };
  }

  /**
   * The voice if an agent of this partner may be given it (its tier includes the voice and the account can speak
   * with the voice's provider), otherwise why not.
   */
  async checkVoice(em: EntityManager, voiceId: string, tier: string, partnerId: string): Promise<VoiceCheck> {
    const voice = isUuid(voiceId) ? await em.findOneBy(Voice, { id: voiceId, status: 'active' }) : null;
    if (!voice) {
      return {
        problem: {
          field: 'voice_id',
          message: 'voice_id is not a voice of the catalog (see GET /agent/voices)',
        },
      };
    }
    if (!entitledVoiceTiers(tier).includes(voice.tier)) {
      return {
        problem: {
          field: 'voice_id',
          message: `voice_id is a ${voice.tier} voice, which this account's ${tier} tier does not include`,
        },
      };
    }
    const account = await this.access.accountOf(partnerId, tier, em);
    if (!this.access.availability(voice.provider, account)) {
      return { problem: { field: 'voice_id', message: unavailableReason(voice.provider) } };
    }
    return { voice };
  }

  async checkBackgroundAudio(em: EntityManager, id: string): Promise<ErrorDetail | null> {
    const found = isUuid(id) && (await em.existsBy(BackgroundAudio, { id, status: 'active' }));
    return found
      ? null
      : {
          field: 'background_audio_id',
          message:
            'background_audio_id is not a background audio of the catalog (see GET /agent/background-audio)',
        };
  }

  /** Voices by id, retired ones included: agents keep the voice they were given. */
  async voicesById(em: EntityManager, ids: string[]): Promise<Map<string, Voice>> {
    const voices = ids.length ? await em.findBy(Voice, { id: In([...new Set(ids)]) }) : [];
    return new Map(voices.map((v) => [v.id, v]));
  }
}
