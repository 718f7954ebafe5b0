import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules, ValidatedConfigs } from '@vap/runtime';
import { BlobStorageModule, BlobStoreConfig } from '@vap/storage';
import { VoiceConfig } from './config/voice.config';
import { ReplicaDrain } from './drain/replica-drain';
import { LocalSpeechStatus } from './media/local-speech-status';
import { MediaModule } from './media/media.module';
import { ReplicaCapacity } from './media/replica-capacity';

@Module({})
export class AppModule {
  static forRoot(config: VoiceConfig, configs: ValidatedConfigs): DynamicModule {
    // One drain state and one count of places: the media server refuses upgrades by them, readiness fails by them.
    const drain = new ReplicaDrain();
    const capacity = new ReplicaCapacity(config.MAX_LIVE_SESSIONS);
    // Whether local speech runs here: readiness reports it, the media plane serves `local` by it.
    const localSpeech = new LocalSpeechStatus();
    return {
      module: AppModule,
      imports: [
        // No Postgres schema: the media plane holds only live state; the calls service owns the calls.
        ...serviceCoreModules('voice', config, null, { checks: [drain, capacity, localSpeech] }),
        // Recordings go where the calls service signs their download URLs; voice writes them and signs nothing,
        // so it holds no signing key.
        BlobStorageModule.forWriter(configs.get(BlobStoreConfig)),
        MediaModule.forRoot(drain, capacity, localSpeech),
      ],
    };
  }
}
