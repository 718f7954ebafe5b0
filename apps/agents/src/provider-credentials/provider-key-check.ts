import { Injectable } from '@nestjs/common';
import { AZURE_OPENAI_RESOURCE_PATTERN, AZURE_REGION_PATTERN } from '@vap/api';
import {
  AppError,
  CredentialProviderName,
  ErrorDetail,
  ModelProviderName,
  SPEECH_PROVIDERS,
  SpeechProviderName,
} from '@vap/messages';
import { KeyCheck, ModelKeyCheckRequest, modelPlugin, ModelPlugin } from '@vap/llm';
import { speechPlugin, SpeechPlugin } from '@vap/speech';
import { isModelProvider } from './model-providers';
import { ModelDeployment } from './model-deployment';
import { withoutKey } from './provider-key-sealer';
import { SpeechDeployment } from './speech-deployment';

/** The parts of a credential to check, as a partner sends them. */
export interface KeyToCheck {
  provider: CredentialProviderName;
  /** Empty: a custom model server that takes no key. */
  apiKey: string;
  region: string | null;
  /** custom: the partner's model server. */
  baseUrl?: string | null;
  /** custom: the secret the check request is signed with (the one the server will be given). */
  signingSecret?: string;
}

/** What a provider's key check needs to know of its plugin, speech or model alike. */
type CheckedPlugin = Pick<SpeechPlugin | ModelPlugin, 'label' | 'needsRegion'> & { name: string };

// Not speech-access's: that file reaches the credentials service, which reaches this one.
const isSpeechProvider = (provider: string): provider is SpeechProviderName =>
  (SPEECH_PROVIDERS as readonly string[]).includes(provider);

/** How messages name a custom model server (its plugin's label names the kind, not the partner's server). */
const MODEL_SERVER = 'The model server';

/**
 * The plugin that checks a provider's keys: its speech plugin when it has one (an openai key is checked once,
 * for its speech and its models alike), else its model plugin; or the 400 saying it cannot be checked here.
 */
export function pluginFor(provider: CredentialProviderName): SpeechPlugin | ModelPlugin {
  const plugin =
    (isSpeechProvider(provider) ? speechPlugin(provider) : undefined) ??
    (isModelProvider(provider) || provider === 'custom' ? modelPlugin(provider) : undefined);
  if (!plugin) {
    throw AppError.validation([
      { field: 'provider', message: `${provider} keys are not supported by this platform yet` },
    ]);
  }
  return plugin;
}

/**
 * What is wrong with a key's region for its provider: required where keys belong to one (an Azure Speech region,
 * an Azure OpenAI resource), of that provider's form, and refused elsewhere.
 */
export function regionProblem(plugin: CheckedPlugin, region: string | null): ErrorDetail | null {
  const resource = plugin.name === 'azure_openai';
  if (plugin.needsRegion && !region) {
    return {
      field: 'region',
      message: resource
        ? `region is required for ${plugin.label} keys: the name of the key's resource, as in https://{resource}.openai.azure.com`
        : `region is required for ${plugin.label} keys (e.g. centralindia)`,
    };
  }
  if (!plugin.needsRegion && region) {
    return {
      field: 'region',
      message: `region applies only to keys of providers with regions; ${plugin.label} has none`,
    };
  }
  if (region && resource && !AZURE_OPENAI_RESOURCE_PATTERN.test(region)) {
    return {
      field: 'region',
      message: `region must be an ${plugin.label} resource name: lower-case letters, digits and hyphens (e.g. acme-openai)`,
    };
  }
  if (region && !resource && !AZURE_REGION_PATTERN.test(region)) {
    return {
      field: 'region',
      message: 'region must be an Azure region name in lower case (e.g. centralindia)',
    };
  }
  return null;
}

/** The host a check went to, as the operator's firewall names it (host and port when not the default). */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/**
 * The partner-facing error of a failed check (the provider's words, never the key). A check that got no answer
 * at all says the provider cannot be reached from this deployment and which host the operator must let it reach:
 * trying again does not help there; a provider that answered with a failure is worth another try.
 */
export function keyCheckError(
  label: string,
  check: Exclude<KeyCheck, { ok: true }>,
  apiKey: string,
  host = '',
): AppError {
  const words = withoutKey(check.message, apiKey);
  if (check.reason === 'rejected') {
    const message = `${label} refused the key: ${words}`;
    return AppError.validation([{ field: 'api_key', message }], message);
  }
  const allow = host
    ? `the platform operator must allow this deployment outbound HTTPS access to ${host}`
    : 'the platform operator must allow this deployment outbound HTTPS access to it';
  if (check.connection === 'dns' || check.connection === 'refused') {
    const why =
      check.connection === 'dns' ? 'its address does not resolve here' : 'the connection was refused';
    return AppError.downstream(
      `${label} cannot be reached from this deployment (${why}), so the key was not checked or saved: ` +
        `${allow}; trying again will not help until then`,
    );
  }
  if (check.connection === 'timeout')
    return AppError.downstream(
      `${label} did not answer the key check: ${words}; the key was not saved. If this deployment cannot ` +
        `reach ${label}, ${allow}; otherwise try again in a moment`,
    );
  return AppError.downstream(
    `${label} did not answer the key check: ${words}; the key was not saved. Try again in a moment`,
  );
}

/**
 * Checks a partner's key live with its provider (one cheap authenticated request against the platform's base URL
 * for that provider: the partner never chooses where its key is sent; a custom model server is the one place the
 * partner names, and its check goes through the private-network guard, signed). Throws the 400 or 502 to answer.
 */
@Injectable()
export class ProviderKeyChecker {
  constructor(
    private readonly speech: SpeechDeployment,
    private readonly models: ModelDeployment,
  ) {}

  async check(key: KeyToCheck): Promise<void> {
    const plugin = pluginFor(key.provider);
    const problem = regionProblem(plugin, key.region);
    if (problem) throw AppError.validation([problem]);
    const label = key.provider === 'custom' ? MODEL_SERVER : plugin.label;
    const request = this.requestFor(plugin, key);
    const result = await plugin
      .checkKey(request)
      // Plugins promise never to throw; one that does still gets an answer, not a 500.
      .catch((err: unknown): KeyCheck => ({
        ok: false,
        reason: 'unreachable',
        message: err instanceof Error ? err.message : String(err),
      }));
    if (!result.ok) throw keyCheckError(label, result, key.apiKey, hostOf(request.baseUrl));
  }

  /** Where and how the key goes: the speech plugin's deployment settings for a speech provider, else the models'. */
  private requestFor(plugin: SpeechPlugin | ModelPlugin, key: KeyToCheck): ModelKeyCheckRequest {
    if (key.provider === 'custom') {
      return {
        apiKey: key.apiKey,
        baseUrl: key.baseUrl ?? '',
        timeoutMs: this.models.keyCheckTimeoutMs,
        signingSecret: key.signingSecret,
        allowPrivateNetworks: this.models.allowPrivateNetworks,
      };
    }
    const speech = isSpeechProvider(key.provider) && plugin === speechPlugin(key.provider);
    const baseUrl = speech
      ? this.speech.baseUrl(key.provider as SpeechProviderName, key.region)
      : this.models.baseUrl(key.provider as ModelProviderName, key.region);
    if (!baseUrl)
      throw AppError.downstream(`${plugin.label} is not reachable from this platform; the key was not saved`);
    return {
      apiKey: key.apiKey,
      baseUrl,
      region: key.region ?? undefined,
      timeoutMs: speech ? this.speech.keyCheckTimeoutMs : this.models.keyCheckTimeoutMs,
    };
  }
}
