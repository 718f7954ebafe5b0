import { apiBaseUrl } from '../api-base-url';
import { checkKeyByRequest } from '../key-check';
import { modelConfigOptions, OpenAiCompatibleChatModel } from '../openai-compatible-chat-model';
import type { ModelPlugin } from '../plugin';
import { COMPATIBLE_HOSTS, CompatibleHost } from './hosts';

export { COMPATIBLE_HOSTS, type CompatibleHost } from './hosts';

/**
 * The plugin of one OpenAI-compatible host: Chat Completions (https://platform.openai.com/docs/api-reference/chat,
 * as each host implements it) at the host's own base URL with its key as a bearer token, the reply's length as
 * `max_tokens`, usage asked for where the host takes `stream_options` and read wherever it comes.
 */
export function compatibleHostPlugin(host: CompatibleHost): ModelPlugin {
  return {
    name: host.name,
    label: host.label,
    defaultBaseUrl: host.baseUrl,
    models: host.models,
    ...(host.anyModel ? { anyModel: true } : {}),
    create: (config) =>
      new OpenAiCompatibleChatModel({
        ...modelConfigOptions(config),
        streamUsage: host.streamUsage,
        serverName: host.label,
      }),
    checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
      checkKeyByRequest(
        `${apiBaseUrl(baseUrl)}${host.keyCheckPath}`,
        { headers: { authorization: `Bearer ${apiKey}` } },
        timeoutMs,
        signal,
      ),
  };
}

export const groqModelPlugin = compatibleHostPlugin(COMPATIBLE_HOSTS.groq);
export const togetherModelPlugin = compatibleHostPlugin(COMPATIBLE_HOSTS.together);
export const fireworksModelPlugin = compatibleHostPlugin(COMPATIBLE_HOSTS.fireworks);
export const openRouterModelPlugin = compatibleHostPlugin(COMPATIBLE_HOSTS.openrouter);
export const deepSeekModelPlugin = compatibleHostPlugin(COMPATIBLE_HOSTS.deepseek);
export const mistralModelPlugin = compatibleHostPlugin(COMPATIBLE_HOSTS.mistral);
