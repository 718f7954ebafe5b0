import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { bootstrapService } from '@vap/runtime';
import { BlobStoreConfig } from '@vap/storage';
import { AppModule } from './app.module';
import { VoiceConfig } from './config/voice.config';

// A full (old-generation) collection holds every live call's next audio frame for 5-15 ms. V8 lets the old
// generation grow only a little past what survived the last one (about 1.2-1.5x here), so what per-call work leaves
// behind set one off every second or two at 200 calls; letting it grow to 4x what is live (300 %) makes them rare,
// for some tens of megabytes of heap. Set here because NODE_OPTIONS does not accept it, and V8 reads it at each
// collection, so every way of starting the service gets it.
setFlagsFromString('--heap-growing-percent=300');

void bootstrapService({
  name: 'voice',
  configClass: VoiceConfig,
  settings: [BlobStoreConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  port: (config) => config.PORT,
  // Live calls get DRAIN_DEADLINE_MS, then the rest end and report; the usual shutdown comes after that.
  shutdownTimeoutMs: (config) => config.DRAIN_DEADLINE_MS + config.SHUTDOWN_TIMEOUT_MS,
});
