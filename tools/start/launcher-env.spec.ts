import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  Env,
  isLauncherSetting,
  PLATFORM_OWNED_SETTINGS,
  PlatformApp,
  platformEnvOf,
  PlatformEnvInput,
  serviceEnvOf,
} from '@vap/testing';
import { readConfigClasses, SettingDoc } from '../docs/configuration-doc';
import { NPM_START_OWNED_SETTINGS, startEnvOf } from './start-env';

const ROOT = resolve(__dirname, '..', '..');
const classes = readConfigClasses(ROOT);
const apps = [...new Set(classes.flatMap((c) => c.apps))].sort() as PlatformApp[];
const PORTS = { gateway: 4100, voice: 4105, sandboxCarrier: 4106 };

/** A value of the setting no launcher would pick by itself, within what the app accepts. */
function distinctiveValue(setting: SettingDoc): string {
  const range =
    /^integer (-?\d+)\.\.(-?\d+)$/.exec(setting.allowed) ?? /^integer ≥ (-?\d+)$/.exec(setting.allowed);
  if (range) return String(Number(range[1]) + 7);
  if (setting.allowed === '`true` or `false`') return setting.default.startsWith('`true`') ? 'false' : 'true';
  const choices = [...setting.allowed.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const other = choices.find((c) => !setting.default.startsWith(`\`${c}\``));
  if (other) return other;
  if (setting.name.endsWith('_URL'))
    return `https://${setting.name.toLowerCase().replace(/_/g, '-')}.example.org`;
  return `distinct-${setting.name.toLowerCase()}-value`;
}

/** Every setting `app` validates, with a distinctive value each. */
function settingsOf(app: PlatformApp): Map<string, string> {
  const out = new Map<string, string>();
  for (const cls of classes.filter((c) => c.apps.includes(app))) {
    for (const setting of cls.settings) out.set(setting.name, distinctiveValue(setting));
  }
  return out;
}

/** The settings of `app` whose value in `launcherEnv` did not reach `appEnv` unchanged. */
function changed(
  app: PlatformApp,
  launcherEnv: Env,
  appEnv: Env,
  owned: typeof PLATFORM_OWNED_SETTINGS,
): Env {
  const out: Env = {};
  for (const name of settingsOf(app).keys()) {
    if (isLauncherSetting(owned, name, app)) continue;
    if (appEnv[name] !== launcherEnv[name]) out[name] = appEnv[name];
  }
  return out;
}

/** What a launcher hands startPlatform here: fixed infrastructure and ports, and `over`. */
function platformInput(over: Partial<PlatformEnvInput> = {}): PlatformEnvInput {
  return {
    databaseUrl: 'postgres://db.example/x',
    natsUrl: 'nats://nats.example:4222',
    gatewayPort: PORTS.gateway,
    voicePort: PORTS.voice,
    sandboxCarrierPort: PORTS.sandboxCarrier,
    sandboxAuthToken: 'a-random-token-of-the-launcher-000000',
    ...over,
  };
}

function appPort(app: PlatformApp): number {
  return app === 'gateway' ? PORTS.gateway : app === 'voice' ? PORTS.voice : 4101;
}

describe("the apps' environment from the launcher's", () => {
  it('walks settings of every app', () => {
    expect(apps).toEqual(['agents', 'calls', 'campaigns', 'gateway', 'sandbox-carrier', 'voice', 'webhooks']);
    expect(settingsOf('voice').get('STT_PROVIDER')).toBeDefined();
  });

  describe.each(apps)('%s', (app) => {
    const launcherEnv: Env = { PATH: '/usr/bin', ...Object.fromEntries(settingsOf(app)) };

    it('under startPlatform carries every setting it does not own unchanged', () => {
      const platform = platformEnvOf(platformInput({ subjectPrefix: 'run1' }), launcherEnv);
      const appEnv = serviceEnvOf(launcherEnv, platform.of(app), appPort(app));
      expect(changed(app, launcherEnv, appEnv, PLATFORM_OWNED_SETTINGS)).toEqual({});
    });

    it('under npm start carries every setting it does not own unchanged', () => {
      const start = startEnvOf(launcherEnv, { gatewayPort: PORTS.gateway, voicePort: PORTS.voice });
      const platform = platformEnvOf(platformInput({ env: start }), launcherEnv);
      const appEnv = serviceEnvOf(launcherEnv, platform.of(app), appPort(app));
      expect(changed(app, launcherEnv, appEnv, NPM_START_OWNED_SETTINGS)).toEqual({});
    });
  });

  it('gives the speech providers a caller names to voice, under npm start', () => {
    const launcherEnv: Env = {
      STT_PROVIDER: 'openai',
      STT_BASE_URL: 'https://speech.example.org/v1',
      TTS_PROVIDER: 'openai',
      TTS_BASE_URL: 'https://speech.example.org/v1',
      LLM_BASE_URL: 'https://llm.example.org/v1',
    };
    const platform = platformEnvOf(
      platformInput({ env: startEnvOf(launcherEnv, { gatewayPort: PORTS.gateway, voicePort: PORTS.voice }) }),
      launcherEnv,
    );
    expect(serviceEnvOf(launcherEnv, platform.of('voice'), PORTS.voice)).toMatchObject(launcherEnv);
  });

  it("gives the apps Node's compile cache in the repository's tmp/, unless the environment names one", () => {
    expect(serviceEnvOf({}, {}, PORTS.voice).NODE_COMPILE_CACHE).toBe(
      resolve(ROOT, 'tmp', 'node-compile-cache'),
    );
    expect(serviceEnvOf({ NODE_COMPILE_CACHE: '/var/cache/vap' }, {}, PORTS.voice).NODE_COMPILE_CACHE).toBe(
      '/var/cache/vap',
    );
  });

  it('sets only what it documents as its own, under npm start', () => {
    const start = startEnvOf({}, { gatewayPort: PORTS.gateway, voicePort: PORTS.voice });
    const platform = platformEnvOf(platformInput({ env: start }), {});
    const doc = readFileSync(resolve(ROOT, 'docs', 'configuration.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Who sets what'));
    for (const app of apps) {
      for (const [name, value] of Object.entries(serviceEnvOf({}, platform.of(app), appPort(app)))) {
        if (value === undefined || !settingsOf(app).has(name)) continue;
        expect({ app, name, documented: section.includes(`\`${name}\``) }).toEqual({
          app,
          name,
          documented: true,
        });
      }
    }
  });
});
