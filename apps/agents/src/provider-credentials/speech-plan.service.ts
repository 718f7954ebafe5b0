import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import {
  isUuid,
  MAX_PLAN_KEYTERMS,
  SpeechCredential,
  SpeechPlan,
  SpeechPlanRequest,
  SttPlanEntry,
  TranscriberSettings,
  TTS_PROVIDERS,
  TtsPlanEntry,
  TtsProviderName,
} from '@vap/messages';
import { INDIAN_LOCALES } from '@vap/speech';
import { Voice } from '../voices/entities/voice.entity';
import { dictionaryTerms } from '../dictionaries/dictionary-terms';
import { SpeechKeys } from './speech-keys';

/** The voice of the offline engine: what speaks when none of the agent's voices is in the catalog any more. */
export const OFFLINE_PLAN_VOICE = 'offline';

function isTtsProvider(provider: string): provider is TtsProviderName {
  return (TTS_PROVIDERS as readonly string[]).includes(provider);
}

/**
 * The transcribers' own keyterms, then the agent's dictionaries' words: first seen first, each once (ignoring
 * case), at most MAX_PLAN_KEYTERMS.
 */
export function planKeyterms(
  transcribers: readonly (TranscriberSettings | null)[],
  dictionaryWords: readonly string[] = [],
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const term of [...transcribers.flatMap((t) => t?.keyterms ?? []), ...dictionaryWords]) {
    const key = term.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(term.trim());
    if (out.length === MAX_PLAN_KEYTERMS) break;
  }
  return out;
}

/**
 * agents.speech.plan: the speech a call runs with, from the agent's snapshot (the call keeps the agent as it was)
 * and the account's keys as they are now. Each voice and transcriber gets the account's key for its provider,
 * else the platform's when the account's tier may use it (paidBy says whose), else none (voice then uses the
 * deployment's default chain or its stand-in: local speech in development, else the offline engine). Keys are
 * unsealed here and go to voice alone.
 */
@Injectable()
export class SpeechPlanService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: SpeechKeys,
  ) {}

  async plan(partnerId: string, voiceTier: string, raw: SpeechPlanRequest): Promise<SpeechPlan> {
    // Voice sends every field; a replica older than one of them sends less, which reads as none.
    const request: SpeechPlanRequest = {
      ...raw,
      fallbackVoiceIds: Array.isArray(raw.fallbackVoiceIds) ? raw.fallbackVoiceIds : [],
      transcriber: raw.transcriber ?? null,
      fallbackTranscriber: raw.fallbackTranscriber ?? null,
      dictionaryIds: Array.isArray(raw.dictionaryIds) ? raw.dictionaryIds : [],
      spokenLanguages: Array.isArray(raw.spokenLanguages) ? raw.spokenLanguages : [],
    };
    const keys = await this.keys.accountKeys(partnerId);
    const credentialFor = (provider: string) => this.keys.credentialFor(provider, keys, voiceTier);
    const tts = await this.ttsEntries(request, credentialFor);
    const stt = [request.transcriber, request.fallbackTranscriber]
      .filter((t): t is TranscriberSettings => !!t)
      .map((t): SttPlanEntry => {
        const entry: SttPlanEntry = {
          provider: t.provider,
          languages: t.languages?.length ? [...t.languages] : [...request.spokenLanguages],
        };
        if (t.model) entry.model = t.model;
        if (t.options && Object.keys(t.options).length) entry.options = { ...t.options };
        const credential = credentialFor(t.provider);
        if (credential) entry.credential = credential;
        return entry;
      });
    // Dictionaries the account deleted since the call's agent snapshot are skipped; another account's never match.
    const dictionaries = await dictionaryTerms(this.dataSource.manager, partnerId, request.dictionaryIds);
    return {
      tts,
      stt,
      keyterms: planKeyterms([request.transcriber, request.fallbackTranscriber], dictionaries.keyterms),
      pronunciations: dictionaries.pronunciations,
    };
  }

  /** The agent's voice then its fallbacks, as the catalog has them (retired voices included: agents keep theirs). */
  private async ttsEntries(
    request: SpeechPlanRequest,
    credentialFor: (provider: string) => SpeechCredential | undefined,
  ): Promise<TtsPlanEntry[]> {
    const ids = [...new Set([request.voiceId, ...request.fallbackVoiceIds].filter(isUuid))];
    const rows = ids.length ? await this.dataSource.getRepository(Voice).findBy({ id: In(ids) }) : [];
    const byId = new Map(rows.map((v) => [v.id, v]));
    const entries: TtsPlanEntry[] = [];
    for (const id of ids) {
      const voice = byId.get(id);
      if (!voice || !isTtsProvider(voice.provider)) continue;
      const entry: TtsPlanEntry = {
        provider: voice.provider,
        voiceId: voice.id,
        providerVoiceId: voice.providerVoiceId,
        model: voice.modelName,
        speed: voice.speed,
        volume: voice.volume,
        language: voice.language,
      };
      const credential = credentialFor(voice.provider);
      if (credential) entry.credential = credential;
      entries.push(entry);
    }
    if (entries.length === 0) entries.push(this.offlineVoice(request.spokenLanguages));
    return entries;
  }

  /** The offline engine in the agent's first language: a call always has a voice. */
  private offlineVoice(spokenLanguages: readonly string[]): TtsPlanEntry {
    return {
      provider: 'offline',
      voiceId: OFFLINE_PLAN_VOICE,
      providerVoiceId: OFFLINE_PLAN_VOICE,
      model: OFFLINE_PLAN_VOICE,
      speed: 1,
      volume: 1,
      language: INDIAN_LOCALES[spokenLanguages[0] as keyof typeof INDIAN_LOCALES] ?? INDIAN_LOCALES.en,
    };
  }
}
