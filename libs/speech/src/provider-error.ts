import { AppError, ErrorCode } from '@vap/messages';

export type ProviderKind = 'stt' | 'tts' | 'llm';

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return typeof cause === 'string' ? cause : 'unknown failure';
}

/**
 * A speech or language provider failed or timed out during a call. The pipeline catches it to apologise, hang
 * up and name the provider in the call's end_call_reason (`reason`). `name` is the provider's implementation
 * (offline, openai, deepgram), as the STT_PROVIDER / TTS_PROVIDER settings spell it.
 */
export class ProviderError extends AppError {
  override readonly name: string;
  override readonly cause: unknown;

  constructor(
    readonly provider: ProviderKind,
    name: string,
    cause: unknown,
  ) {
    super(ErrorCode.INTERNAL_ERROR, `${provider} provider ${name} failed: ${describe(cause)}`, {
      status: 502,
    });
    this.name = name;
    this.cause = cause;
  }

  /** For end_call_reason: which provider failed, e.g. `stt_provider_error:deepgram`. */
  get reason(): string {
    return `${this.provider}_provider_error:${this.name}`;
  }
}

/** Thrown when a request's own deadline passed, so errors say "timed out" and not "aborted". */
export class ProviderTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${ms} ms`);
    this.name = 'ProviderTimeout';
  }
}
