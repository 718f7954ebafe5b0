// The voice service as an integration spec starts it (IntegrationApp): its own module and configs (it has no schema).
import { randomBytes } from 'node:crypto';
import { ManualClock } from '@vap/runtime';
import { BlobStoreConfig } from '@vap/storage';
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { AppModule } from '../app.module';
import { VoiceConfig } from '../config/voice.config';

export const voiceService: IntegrationAppDefinition<VoiceConfig> = {
  name: 'voice',
  configClass: VoiceConfig,
  settings: [BlobStoreConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  env: {
    STREAM_TOKEN_KEY: randomBytes(32).toString('hex'),
    MEDIA_PUBLIC_URL: 'http://127.0.0.1:3005',
    STT_PROVIDER: 'offline',
    TTS_PROVIDER: 'offline',
  },
  // The stream URLs the calls service gives carriers name the media plane's own address.
  httpEnv: (url) => ({ MEDIA_PUBLIC_URL: url }),
};

export const startVoice = (options?: IntegrationAppOptions): Promise<IntegrationApp<VoiceConfig>> =>
  IntegrationApp.start(voiceService, options);

/**
 * Moves the app's manual clock on with wall time (every millisecond) until the returned stop is called. A call's
 * media clock and its timers (the endpointing wait, the hold over caller sound) read the app's clock, while the
 * carrier's phone speaks in real time: a spec of turn-taking needs the two to agree.
 */
export function followWallTime(clock: ManualClock): () => void {
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    clock.advance(now - last);
    last = now;
  }, 1);
  return () => clearInterval(ticker);
}
