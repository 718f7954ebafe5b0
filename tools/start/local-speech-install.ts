// `npm start` and local speech: the voice service's development default speaks with eSpeak NG and hears with
// PocketSphinx, both Debian packages. When they are missing, npm start installs them where it may (as root, or
// with passwordless sudo); elsewhere it prints the command and goes on (voice then runs calls on the offline
// signal engine, and says so).
import { spawn, spawnSync } from 'node:child_process';
import { LOCAL_SPEECH_PACKAGES, localSpeechProblem, localSpeechSettings, providerNames } from '@vap/speech';

/** How the packages can be installed here: directly (root), through `sudo -n`, or not at all. */
export type InstallRoute = 'root' | 'sudo' | 'none';

/** Whether the voice service, run with this environment, would use local speech (its development default). */
export function wantsLocalSpeech(env: NodeJS.ProcessEnv): boolean {
  return [env.STT_PROVIDER, env.TTS_PROVIDER].some(
    (value) => !value?.trim() || providerNames(value).includes('local'),
  );
}

/** The commands that install the packages by `route` (none when nothing may install them). */
export function installCommands(route: InstallRoute): string[][] {
  if (route === 'none') return [];
  const prefix = route === 'sudo' ? ['sudo', '-n'] : [];
  return [
    [...prefix, 'apt-get', 'update'],
    [...prefix, 'apt-get', 'install', '-y', '--no-install-recommends', ...LOCAL_SPEECH_PACKAGES],
  ];
}

function installRoute(): InstallRoute {
  if (process.getuid?.() === 0) return 'root';
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5000 });
  return sudo.status === 0 ? 'sudo' : 'none';
}

function run(command: string[], say: (line: string) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    let tail = '';
    const keep = (data: Buffer) => (tail = (tail + data.toString()).slice(-2000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => {
      say(`${command.join(' ')}: ${error.message}`);
      resolve(false);
    });
    child.on('close', (code) => {
      if (code !== 0) {
        say(`${command.join(' ')} exited with code ${code}:`);
        for (const line of tail.trim().split('\n').slice(-5)) say(`  ${line}`);
      }
      resolve(code === 0);
    });
  });
}

/**
 * Makes sure local speech can run when voice will use it: installs the missing packages where it may, else
 * says what to run. Never fails the start.
 */
export async function ensureLocalSpeech(
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
  complain: (line: string) => void,
): Promise<void> {
  if (!wantsLocalSpeech(env)) return;
  const settings = localSpeechSettings({
    STT_PROVIDER: 'local',
    TTS_PROVIDER: 'local',
    PROVIDER_TIMEOUT_MS: 10_000,
    LOCAL_SPEECH_PYTHON: env.LOCAL_SPEECH_PYTHON,
    LOCAL_SPEECH_ESPEAK: env.LOCAL_SPEECH_ESPEAK,
  });
  const problem = await localSpeechProblem(settings);
  if (!problem) return;
  const route = installRoute();
  if (route === 'none') {
    complain(
      `${problem} (run it, then restart); until then voice runs calls on the offline signal engine, ` +
        "which understands only the platform's own synthetic speech",
    );
    return;
  }
  say(
    `local speech: installing ${LOCAL_SPEECH_PACKAGES.join(', ')} with apt-get${route === 'sudo' ? ' (sudo)' : ''}`,
  );
  for (const command of installCommands(route)) {
    if (!(await run(command, say))) break;
  }
  const after = await localSpeechProblem(settings);
  if (after) complain(`${after}; voice runs calls on the offline signal engine meanwhile`);
  else say('local speech: installed (eSpeak NG, PocketSphinx)');
}
