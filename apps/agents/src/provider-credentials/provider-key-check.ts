import { Injectable } from '@nestjs/common';
import { AppError, ErrorDetail, SpeechProviderName } from '@vap/messages';
import { KeyCheck, speechPlugin, SpeechPlugin } from '@vap/speech';
import { withoutKey } from './provider-key-sealer';
import { SpeechDeployment } from './speech-deployment';

/** The parts of a key to check, as a partner sends them. */
export interface KeyToCheck {
  provider: SpeechProviderName;
  apiKey: string;
  region: string | null;
}

/** The plugin of a provider whose keys can be checked here, or the 400 saying it cannot. */
export function pluginFor(provider: SpeechProviderName): SpeechPlugin {
  const plugin = speechPlugin(provider);
  if (!plugin) {
    throw AppError.validation([
      { field: 'provider', message: `${provider} keys are not supported by this platform yet` },
    ]);
  }
  return plugin;
}

/** What is wrong with a key's region for its provider: required where keys belong to one, refused elsewhere. */
export function regionProblem(plugin: SpeechPlugin, region: string | null): ErrorDetail | null {
  if (plugin.needsRegion && !region) {
    return { field: 'region', message: `region is required for ${plugin.label} keys (e.g. centralindia)` };
  }
  if (!plugin.needsRegion && region) {
    return {
      field: 'region',
      message: `region applies only to keys of providers with regions; ${plugin.label} has none`,
    };
  }
  return null;
}

/** The partner-facing error of a failed check (the provider's words, never the key). */
export function keyCheckError(
  label: string,
  check: Exclude<KeyCheck, { ok: true }>,
  apiKey: string,
): AppError {
  const words = withoutKey(check.message, apiKey);
  if (check.reason === 'rejected') {
    const message = `${label} refused the key: ${words}`;
    return AppError.validation([{ field: 'api_key', message }], message);
  }
  return AppError.downstream(`${label} did not answer the key check: ${words}; the key was not saved`);
}

/**
 * Checks a partner's key live with its provider (one cheap authenticated request against the platform's base URL
 * for that provider: the partner never chooses where its key is sent). Throws the 400 or 502 to answer.
 */
@Injectable()
export class ProviderKeyChecker {
  constructor(private readonly deployment: SpeechDeployment) {}

  async check({ provider, apiKey, region }: KeyToCheck): Promise<void> {
    const plugin = pluginFor(provider);
    const problem = regionProblem(plugin, region);
    if (problem) throw AppError.validation([problem]);
    const baseUrl = this.deployment.baseUrl(provider, region);
    if (!baseUrl)
      throw AppError.downstream(`${plugin.label} is not reachable from this platform; the key was not saved`);
    const result = await plugin
      .checkKey({
        apiKey,
        baseUrl,
        region: region ?? undefined,
        timeoutMs: this.deployment.keyCheckTimeoutMs,
      })
      // Plugins promise never to throw; one that does still gets an answer, not a 500.
      .catch((err: unknown): KeyCheck => ({
        ok: false,
        reason: 'unreachable',
        message: err instanceof Error ? err.message : String(err),
      }));
    if (!result.ok) throw keyCheckError(plugin.label, result, apiKey);
  }
}
