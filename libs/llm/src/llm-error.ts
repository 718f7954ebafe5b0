import { AppError, ErrorCode } from '@vap/messages';

/** Why a model call failed: the voice pipeline reports a provider failure, an abort is the caller's own doing. */
export type LlmFailure = 'status' | 'timeout' | 'network' | 'protocol' | 'aborted';

/**
 * A language-model call that failed: the server answered an error status, went silent past the timeout,
 * could not be reached, sent something that is not a chat completion, or the caller aborted. A downstream
 * failure (502) for anyone who lets it reach the API.
 */
export class LlmError extends AppError {
  constructor(
    message: string,
    readonly failure: LlmFailure,
    /** The model server's HTTP status, for `status` failures. */
    readonly upstreamStatus?: number,
  ) {
    super(ErrorCode.INTERNAL_ERROR, message, { status: 502 });
    this.name = 'LlmError';
  }
}
