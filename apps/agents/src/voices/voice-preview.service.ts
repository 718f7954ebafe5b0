import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AppError,
  entitledVoiceTiers,
  ErrorCode,
  PartnerContext,
  VoicePreview as VoicePreviewReply,
  VoicePreviewEngine,
} from '@vap/messages';
import {
  defaultPythonPath,
  LocalTtsProvider,
  localVoiceProblem,
  OfflineTtsProvider,
  speechPlugin,
  TtsProvider,
  ttsCapabilities,
} from '@vap/speech';
import { voiceTierOf } from '../common/caller';
import { Voice } from './entities/voice.entity';
import { VoicePreview } from './entities/voice-preview.entity';
import { catalogVoiceUuid } from './catalog-voices.service';
import { SpeechKeys } from '../provider-credentials/speech-keys';
import { collectPreviewPcm, PREVIEW_SAMPLE_RATE, previewTextHash, previewWav } from './preview-audio';

/** How long one synthesis may take, end to end (the gateway waits a little longer). */
const SYNTHESIS_DEADLINE_MS = 15_000;
const PROVIDER_TIMEOUT_MS = 10_000;

interface Engine {
  engine: VoicePreviewEngine;
  tts: TtsProvider;
}

/**
 * GET /voice-configurations/{id}/preview: the voice saying its preview_text, as a WAV. Synthesised once per
 * voice version and engine and kept in voice_previews; concurrent first requests share one synthesis.
 */
@Injectable()
export class VoicePreviewService {
  private readonly logger = new Logger(VoicePreviewService.name);
  private readonly pending = new Map<string, Promise<VoicePreviewReply>>();
  /** eSpeak NG on this machine (local speech's voice), checked once: undefined until then. */
  private localVoice?: Promise<LocalTtsProvider | undefined>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly speechKeys: SpeechKeys,
  ) {}

  async preview(
    partner: PartnerContext | undefined,
    partnerId: string,
    id: string,
  ): Promise<VoicePreviewReply> {
    const voice = await this.entitledVoice(id, voiceTierOf(partner));
    const engine = await this.engineFor(voice, partnerId, voiceTierOf(partner));
    const cacheKey = `${voice.id}\u0000${engine.engine}\u0000${voice.updatedAt.getTime()}`;
    let reply = this.pending.get(cacheKey);
    if (!reply) {
      reply = this.cachedOrSynthesised(voice, engine).finally(() => this.pending.delete(cacheKey));
      this.pending.set(cacheKey, reply);
    }
    return reply;
  }

  /** An active voice of the partner's tiers; anything else does not exist for the partner (404). */
  private async entitledVoice(id: string, tier: string): Promise<Voice> {
    const uuid = catalogVoiceUuid(id);
    const voice = uuid
      ? await this.dataSource.manager.findOneBy(Voice, { id: uuid, status: 'active' })
      : null;
    if (!voice || !entitledVoiceTiers(tier).includes(voice.tier))
      throw AppError.notFound('Voice configuration');
    return voice;
  }

  /** eSpeak NG when it is installed here (local speech, the development default), else undefined. */
  private localTts(): Promise<LocalTtsProvider | undefined> {
    const settings = {
      espeakPath: 'espeak-ng',
      pythonPath: defaultPythonPath(),
      timeoutMs: PROVIDER_TIMEOUT_MS,
    };
    this.localVoice ??= localVoiceProblem(settings).then((problem) => {
      if (problem) this.logger.warn(`${problem}; previews stand in with the offline engine`);
      return problem ? undefined : new LocalTtsProvider(settings);
    });
    return this.localVoice;
  }

  /**
   * The voice's provider with the account's key, else the platform's; else, when the deployment allows a stand-in,
   * local speech in the voice's language (as calls speak it in development), or the offline engine without it.
   */
  private async engineFor(voice: Voice, partnerId: string, tier: string): Promise<Engine> {
    if (voice.provider === 'offline') return { engine: 'offline', tts: new OfflineTtsProvider() };
    if (voice.provider === 'local') {
      const local = await this.localTts();
      return local
        ? { engine: 'provider', tts: local }
        : { engine: 'offline', tts: new OfflineTtsProvider() };
    }
    const capabilities = ttsCapabilities(voice.provider);
    if (capabilities) {
      // The account's key first, then the platform's for its tier (the same choice a call makes).
      const key = this.speechKeys.credentialFor(
        voice.provider,
        await this.speechKeys.accountKeys(partnerId),
        tier,
      );
      if (key) {
        try {
          const tts = capabilities.create({
            apiKey: key.apiKey,
            baseUrl: key.baseUrl,
            region: key.region,
            model: voice.modelName,
            timeoutMs: PROVIDER_TIMEOUT_MS,
          });
          return { engine: 'provider', tts };
        } catch (error) {
          // A key setting the adapter refuses (a malformed base URL) is the deployment's fault, not the partner's.
          const reason = error instanceof Error ? error.message : String(error);
          this.logger.error(`The ${voice.provider} speech settings are unusable: ${reason.slice(0, 200)}`);
          throw new AppError(
            ErrorCode.INTERNAL_ERROR,
            `The ${voice.provider} speech provider is misconfigured`,
            {
              status: 502,
            },
          );
        }
      }
    }
    if (this.speechKeys.offlineStandIn) {
      const local = this.speechKeys.standInEngine === 'local' ? await this.localTts() : undefined;
      return local ? { engine: 'local', tts: local } : { engine: 'offline', tts: new OfflineTtsProvider() };
    }
    const label = speechPlugin(voice.provider)?.label ?? voice.provider;
    throw new AppError(
      ErrorCode.INVALID_STATE,
      `This voice needs a key for ${label} to be heard (POST /provider-credentials); the platform has none for this account`,
    );
  }

  private async cachedOrSynthesised(voice: Voice, engine: Engine): Promise<VoicePreviewReply> {
    const textSha256 = previewTextHash(voice.previewText);
    const version = voice.updatedAt.toISOString();
    const cached = await this.dataSource.manager.findOneBy(VoicePreview, {
      voiceId: voice.id,
      engine: engine.engine,
    });
    // Compared in JS: both dates come from the same column read the same way (ms precision).
    if (
      cached &&
      cached.voiceUpdatedAt.getTime() === voice.updatedAt.getTime() &&
      cached.textSha256 === textSha256
    ) {
      return this.reply(cached.audio, engine.engine, cached.sampleRate, version);
    }
    const wav = previewWav(await this.synthesise(voice, engine));
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(VoicePreview)
      .values({
        voiceId: voice.id,
        engine: engine.engine,
        voiceUpdatedAt: voice.updatedAt,
        textSha256,
        sampleRate: PREVIEW_SAMPLE_RATE,
        audio: wav,
      })
      .orUpdate(
        ['voice_updated_at', 'text_sha256', 'sample_rate', 'audio', 'created_at'],
        ['voice_id', 'engine'],
      )
      .execute();
    return this.reply(wav, engine.engine, PREVIEW_SAMPLE_RATE, version);
  }

  private async synthesise(voice: Voice, engine: Engine): Promise<Int16Array> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), SYNTHESIS_DEADLINE_MS);
    try {
      const pcm = await collectPreviewPcm(
        engine.tts.synthesize(
          {
            text: voice.previewText,
            voice: {
              providerVoiceId: voice.providerVoiceId,
              model: voice.modelName,
              speed: voice.speed,
              volume: voice.volume,
              language: voice.language,
            },
          },
          abort.signal,
        ),
        () => abort.abort(),
      );
      if (abort.signal.aborted && pcm.length === 0)
        throw new Error(`no audio within ${SYNTHESIS_DEADLINE_MS} ms`);
      if (pcm.length === 0) throw new Error('the provider answered no audio');
      return pcm;
    } catch (error) {
      const label =
        engine.engine === 'offline'
          ? 'The offline engine'
          : engine.engine === 'local' || voice.provider === 'local'
            ? 'Local speech (eSpeak NG)'
            : (speechPlugin(voice.provider)?.label ?? voice.provider);
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      this.logger.warn(`Preview of voice ${voice.id} (${voice.provider}) failed: ${reason}`);
      throw new AppError(ErrorCode.INTERNAL_ERROR, `${label} could not speak the preview: ${reason}`, {
        status: 502,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private reply(
    wav: Buffer,
    engine: VoicePreviewEngine,
    sampleRate: number,
    version: string,
  ): VoicePreviewReply {
    return { wavBase64: wav.toString('base64'), engine, sampleRate, version };
  }
}
