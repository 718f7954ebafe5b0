// A speech or language provider failed or timed out mid-call. The conversation apologises and hangs up with
// an end_call_reason naming the provider; this error carries which one through the pipeline.

export type ProviderKind = 'stt' | 'llm' | 'tts';

export class ProviderFailure extends Error {
  constructor(
    readonly provider: ProviderKind,
    readonly reason: unknown,
  ) {
    super(`${provider} provider failed: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'ProviderFailure';
  }

  /** The call's end_call_reason. */
  get endCallReason(): string {
    return `${this.provider}_provider_failed`;
  }
}

/** Thrown inside the pipeline when work stops because its signal aborted (barge-in, hang-up): never reported. */
export class Aborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'Aborted';
  }
}

/**
 * Races `promise` against a wall-clock timeout (providers answer in real time whatever the media scale) and the
 * signal. On timeout, `onTimeout` runs (abort the request) and the result rejects as a ProviderFailure.
 */
export function withProviderTimeout<T>(
  provider: ProviderKind,
  promise: Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
  onTimeout?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      action();
    };
    const onAbort = () => settle(() => reject(new Aborted()));
    const timer = setTimeout(() => {
      onTimeout?.();
      settle(() => reject(new ProviderFailure(provider, new Error(`no answer within ${timeoutMs} ms`))));
    }, timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) =>
        settle(() =>
          reject(
            signal?.aborted
              ? new Aborted()
              : error instanceof ProviderFailure || error instanceof Aborted
                ? error
                : new ProviderFailure(provider, error),
          ),
        ),
    );
  });
}
