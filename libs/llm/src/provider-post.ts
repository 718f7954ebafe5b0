// One request to a model provider, as every chat adapter makes it: a JSON POST under the turn's silence watchdog,
// an error status turned into an LlmError quoting the provider's words (never the key), and every other way it
// can fail (abort, silence, undici's own timeouts, the network) into one LlmError of its kind.
import { Dispatcher, request } from 'undici';
import { LlmError } from './llm-error';
import type { SilenceWatchdog } from './silence-watchdog';

/** How a request is told apart when it fails: the provider's name and how its words lose the key. */
export interface ProviderFailureOptions {
  /** How the provider is named in errors (Anthropic, Google Gemini, the model server). */
  server: string;
  watchdog: SilenceWatchdog;
  signal: AbortSignal | undefined;
  /** Takes the key (and the provider's echoes of keys) out of a provider's words. */
  redact(text: string): string;
  /** Why the network failed, in words (a partner's server through the egress guard says it its own way). */
  networkFailure?(err: unknown): string;
}

export interface ProviderPostOptions extends ProviderFailureOptions {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The provider's words in an error answer's body. */
  errorWords(body: Dispatcher.ResponseData['body']): Promise<string>;
  /** Headers made from the raw body (a partner's server: its signature). */
  signedHeaders?(raw: string): Record<string, string>;
  /** Checked before anything is sent (a partner's server: the private-network guard). */
  checkUrl?(url: URL): void;
  dispatcher?: Dispatcher;
}

/** The answer once its status is 2xx; the watchdog stays armed for the body only when it is read after this. */
export async function postToProvider(o: ProviderPostOptions): Promise<Dispatcher.ResponseData> {
  if (o.signal?.aborted) throw new LlmError('the LLM request was aborted', 'aborted');
  o.watchdog.arm();
  try {
    o.checkUrl?.(new URL(o.url));
    const raw = JSON.stringify(o.body);
    const res = await request(o.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: o.body.stream ? 'text/event-stream' : 'application/json',
        ...o.headers,
        ...(o.signedHeaders?.(raw) ?? {}),
      },
      body: raw,
      signal: o.watchdog.signal,
      ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
    });
    if (res.statusCode >= 200 && res.statusCode < 300) return res;
    const detail = o.redact(await o.errorWords(res.body));
    throw new LlmError(
      `${o.server} answered ${res.statusCode}${detail ? `: ${detail}` : ''}`,
      'status',
      res.statusCode,
    );
  } catch (err) {
    // No answer to read: the request is over.
    o.watchdog.release();
    throw providerFailure(err, o);
  } finally {
    o.watchdog.disarm();
  }
}

/** What went wrong, as an LlmError: our own errors as they are, then aborts, silences and network failures. */
export function providerFailure(err: unknown, o: ProviderFailureOptions): LlmError {
  if (err instanceof LlmError) return err;
  if (o.signal?.aborted) return new LlmError('the LLM request was aborted', 'aborted');
  if (o.watchdog.fired) return o.watchdog.timeoutError();
  const code = (err as { code?: string }).code;
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return o.watchdog.timeoutError();
  const why = o.networkFailure ? o.networkFailure(err) : ((err as Error).message ?? String(err));
  return new LlmError(`${o.server} could not be reached: ${o.redact(why)}`, 'network');
}
