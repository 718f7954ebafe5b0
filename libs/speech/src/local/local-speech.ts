// Local speech: eSpeak NG for the voice and PocketSphinx (US English) for the recogniser, both run on this
// machine from Debian's packages. Nothing is downloaded: without the packages the deployment says what to install.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** The Debian packages local speech runs on. */
export const LOCAL_SPEECH_PACKAGES = [
  'espeak-ng',
  'pocketsphinx',
  'pocketsphinx-en-us',
  'python3-pocketsphinx',
];
/** The command that installs them. */
export const LOCAL_SPEECH_APT_COMMAND = `sudo apt-get install -y ${LOCAL_SPEECH_PACKAGES.join(' ')}`;
/** Where pocketsphinx-en-us puts the US English model. */
export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** Most recogniser processes one replica runs (each holds the model, about 40 MB). */
export const MAX_LOCAL_STT_WORKERS = 16;

/** Where local speech's programs are, and how many recognisers run (LOCAL_SPEECH_* settings). */
export interface LocalSpeechSettings {
  /** The Python that has Debian's pocketsphinx module. */
  pythonPath: string;
  espeakPath: string;
  /** Recogniser processes, 1..MAX_LOCAL_STT_WORKERS. */
  sttWorkers: number;
  /** Deadline of one synthesis (to its first audio) or recognition (queue and decoding), in ms. */
  timeoutMs: number;
}

/**
 * Debian's python3 (it has python3-pocketsphinx): /usr/bin/python3 where it exists, since a `python3` first on
 * PATH may be another one (pyenv, a virtualenv) without the module.
 */
export function defaultPythonPath(): string {
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** One recogniser per CPU by default, within 1..MAX_LOCAL_STT_WORKERS. */
export function defaultSttWorkers(): number {
  return Math.max(1, Math.min(MAX_LOCAL_STT_WORKERS, availableParallelism()));
}

function run(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, maxBuffer: 64 * 1024 }, (error, _stdout, stderr) =>
      resolve(error ? (String(stderr).trim().split('\n').pop() || error.message).slice(0, 300) : undefined),
    );
  });
}

/** What keeps local speech's voice (espeak-ng alone) from running here, or undefined when it can. */
export async function localVoiceProblem(
  settings: Pick<LocalSpeechSettings, 'espeakPath'>,
): Promise<string | undefined> {
  const espeak = await run(settings.espeakPath, ['--version']);
  return espeak
    ? `local speech needs espeak-ng (${settings.espeakPath}: ${espeak}): install it with \`${LOCAL_SPEECH_APT_COMMAND}\``
    : undefined;
}

/**
 * What keeps local speech from running here, with the command that fixes it, or undefined when espeak-ng, the
 * pocketsphinx Python module and its US English model are all present.
 */
export async function localSpeechProblem(
  settings: Pick<LocalSpeechSettings, 'pythonPath' | 'espeakPath'>,
): Promise<string | undefined> {
  const missing: string[] = [];
  const espeak = await run(settings.espeakPath, ['--version']);
  if (espeak) missing.push(`espeak-ng (${settings.espeakPath}: ${espeak})`);
  const python = await run(settings.pythonPath, ['-c', 'from pocketsphinx import Decoder']);
  if (python) missing.push(`the pocketsphinx Python module (${settings.pythonPath}: ${python})`);
  if (!existsSync(`${POCKETSPHINX_MODEL_DIR}/en-us.lm.bin`)) {
    missing.push(`the PocketSphinx US English model (${POCKETSPHINX_MODEL_DIR})`);
  }
  if (!missing.length) return undefined;
  return `local speech needs ${missing.join(', ')}: install them with \`${LOCAL_SPEECH_APT_COMMAND}\``;
}
