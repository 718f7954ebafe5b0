// The voice service as an integration spec starts it (IntegrationApp): its own module and configs (it has no schema).
import { randomBytes } from 'node:crypto';
import { ManualClock } from '@vap/runtime';
import { BlobStoreConfig } from '@vap/storage';
import { ChatScript, ScriptedChatModel, startScriptedChatModel } from '@vap/llm/testing';
import {
  IntegrationApp,
  IntegrationAppDefinition,
  IntegrationAppOptions,
  useIntegrationApp,
} from '@vap/testing/integration';
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

/**
 * The suite's voice service listening on HTTP (for the carrier's media socket), its model the scripted fake model
 * playing `script`, and its clock following wall time: what a spec playing the simulated phone against the agent
 * needs. `model()` is the fake model once the suite started.
 */
export function useVoiceWithScriptedModel(
  script: ChatScript,
  env: Record<string, string>,
): { voice: IntegrationApp<VoiceConfig>; model: () => ScriptedChatModel } {
  let model: ScriptedChatModel | undefined;
  let stopClock = () => undefined as void;
  const voice = useIntegrationApp(
    async () => {
      model = await startScriptedChatModel();
      model.script(script);
      const app = await startVoice({ http: true, env: { ...env, ...model.env() } });
      stopClock = followWallTime(app.clock);
      return app;
    },
    {
      timeout: 60_000,
      afterStop: () => {
        stopClock();
        return model?.close();
      },
    },
  );
  return {
    voice,
    model: () => {
      if (!model) throw new Error('the scripted model starts with the suite');
      return model;
    },
  };
}

/** The sum of a metric's series on the voice service's /metrics, only those with `label` (`name="value"`) when given. */
export async function voiceMetricSum(
  voice: IntegrationApp<VoiceConfig>,
  name: string,
  label?: string,
): Promise<number> {
  const text = await (await fetch(`${voice.url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    if (label && !line.includes(label)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
