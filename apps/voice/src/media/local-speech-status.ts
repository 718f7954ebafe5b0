import type { ReadinessCheck } from '@vap/runtime';
import { localSpeechProblem, localSpeechSettings, providerNames, type SpeechSettings } from '@vap/speech';

/**
 * Whether local speech (eSpeak NG, PocketSphinx) can run on this replica, checked once at boot when
 * STT_PROVIDER or TTS_PROVIDER names `local`. Without its Debian packages the replica still takes calls, on the
 * offline engine in its place: readiness stays up and says so (`local_speech` in /health/ready), and the log
 * says it once, with the command that installs them.
 */
export class LocalSpeechStatus implements ReadinessCheck {
  readonly name = 'local_speech';
  /** What is missing, with the apt command; undefined when local speech runs (or is not asked for). */
  problem: string | undefined;
  private wanted = false;

  /** Checks the machine when the settings ask for local speech; logs a warning when it cannot run. */
  async check(settings: SpeechSettings, warn: (message: string) => void): Promise<void> {
    this.wanted = [settings.STT_PROVIDER, settings.TTS_PROVIDER].some((list) =>
      providerNames(list).includes('local'),
    );
    if (!this.wanted) return;
    this.problem = await localSpeechProblem(localSpeechSettings(settings));
    if (this.problem) warn(`${this.problem}; until then calls run on the offline signal engine in its place`);
  }

  notReadyReason(): string | null {
    return null;
  }

  detail(): Record<string, unknown> | undefined {
    if (!this.wanted) return { engine: 'not used' };
    return this.problem
      ? { engine: 'offline (standing in)', message: this.problem }
      : { engine: 'espeak-ng, pocketsphinx' };
  }
}
