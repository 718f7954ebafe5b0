import { request } from 'undici';
import { PARTNER_REQUEST_HEADERS, partnerRequestSignature } from '@vap/egress';
import { connectionFailureOf, KeyCheck, providerWords } from '../key-check';
import { LlmError } from '../llm-error';
import { modelConfigOptions, OpenAiCompatibleChatModel } from '../openai-compatible-chat-model';
import type { ModelCard, ModelKeyCheckRequest, ModelPlugin } from '../plugin';
import { checkPartnerUrl, partnerEgress, partnerNetworkFailure } from './partner-egress';

export { partnerEgress } from './partner-egress';

const USER_AGENT = 'Vap-Model-Requests/1';

/**
 * What the platform takes a partner's model server to do: it serves whatever model ids it serves (anyModel), each
 * taken as a tool-calling chat model of this size.
 */
export const CUSTOM_MODELS: readonly ModelCard[] = [
  {
    id: 'default',
    label: 'Your model server',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    tools: true,
    speechToSpeech: false,
    languages: [],
    temperature: { min: 0, max: 2 },
  },
];

/** `<base_url>/<path>`: the partner's base taken as it is (no `/v1` added), without a trailing slash. */
export function customServerUrl(baseUrl: string, path: '/chat/completions' | '/models'): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}${path}`;
}

/** The x-vap-timestamp and x-vap-signature of one request (over `<timestamp>.<raw body>`; a GET's body is ''). */
export function customServerSignature(
  signingSecret: string | undefined,
  rawBody: string,
): Record<string, string> {
  if (!signingSecret) return {};
  const timestamp = String(Date.now());
  return {
    [PARTNER_REQUEST_HEADERS.timestamp]: timestamp,
    [PARTNER_REQUEST_HEADERS.signature]: partnerRequestSignature(signingSecret, timestamp, rawBody),
  };
}

/**
 * A partner's own model server: OpenAI-compatible streamed chat completions (the OpenAI Chat Completions wire
 * format, https://platform.openai.com/docs/api-reference/chat) POSTed to `<base_url>/chat/completions`, the body
 * adding `call: { id, variables }` (the transcript so far is the messages), usage asked for with
 * `stream_options.include_usage`, the key (when the partner gave one) as a bearer token, each request signed as
 * custom functions are (x-vap-timestamp, x-vap-signature: `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`),
 * sent through the private-network guard. The partner may answer with tool calls.
 */
export const customModelPlugin: ModelPlugin = {
  name: 'custom',
  label: 'Custom model server',
  defaultBaseUrl: '',
  anyModel: true,
  models: CUSTOM_MODELS,
  create: (config) => {
    const { guard, agent } = partnerEgress(config.allowPrivateNetworks);
    return new OpenAiCompatibleChatModel({
      ...modelConfigOptions(config),
      chatUrl: customServerUrl(config.baseUrl, '/chat/completions'),
      streamUsage: true,
      serverName: 'the model server',
      turnFields: (req) => (req.call ? { call: { id: req.call.callId, variables: req.call.variables } } : {}),
      signedHeaders: (raw) => ({
        'user-agent': USER_AGENT,
        ...customServerSignature(config.signingSecret, raw),
      }),
      dispatcher: agent,
      checkUrl: (url) => checkPartnerUrl(url, guard),
      networkFailure: partnerNetworkFailure,
    });
  },
  checkKey: checkCustomServer,
};

/**
 * A signed GET `<base_url>/models` through the guard: 2xx, 404 and 405 are a server that answers and took the
 * request (listing models is optional), 401 and 403 a refused key or signature, anything else (or no answer in
 * time) unreachable.
 */
export async function checkCustomServer(
  request_: ModelKeyCheckRequest,
  signal?: AbortSignal,
): Promise<KeyCheck> {
  const { guard, agent } = partnerEgress(request_.allowPrivateNetworks);
  const url = customServerUrl(request_.baseUrl, '/models');
  const deadline = AbortSignal.timeout(request_.timeoutMs);
  try {
    checkPartnerUrl(new URL(url), guard);
    const res = await request(url, {
      method: 'GET',
      dispatcher: agent,
      headers: {
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...(request_.apiKey ? { authorization: `Bearer ${request_.apiKey}` } : {}),
        ...customServerSignature(request_.signingSecret, ''),
      },
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    });
    const text = await res.body.text().catch(() => '');
    if ((res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 404 || res.statusCode === 405)
      return { ok: true };
    const words = providerWords(text) || `HTTP ${res.statusCode}`;
    const reason = res.statusCode === 401 || res.statusCode === 403 ? 'rejected' : 'unreachable';
    return { ok: false, reason, status: res.statusCode, message: words };
  } catch (error) {
    // The guard's refusal (a private address, a URL it does not take) is the partner's to fix, not the network's.
    if (!deadline.aborted && error instanceof LlmError)
      return { ok: false, reason: 'unreachable', message: error.message };
    const connection = deadline.aborted ? 'timeout' : connectionFailureOf(error);
    const message = deadline.aborted
      ? `no answer within ${request_.timeoutMs} ms`
      : partnerNetworkFailure(error);
    return connection
      ? { ok: false, reason: 'unreachable', message, connection }
      : { ok: false, reason: 'unreachable', message };
  }
}
