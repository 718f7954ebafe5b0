import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { AppModule } from './app.module';
import { VoiceConfig } from './config/voice.config';

void bootstrapService({
  name: 'voice',
  configClass: VoiceConfig,
  settings: [BlobStorageConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  port: (config) => config.PORT,
  // Live calls get DRAIN_DEADLINE_MS, then the rest end and report; the usual shutdown comes after that.
  shutdownTimeoutMs: (config) => config.DRAIN_DEADLINE_MS + config.SHUTDOWN_TIMEOUT_MS,
});
