import { AppError, VoiceTranscriptRequest } from '@vap/messages';

/** A stream id names a voice session's stream: key-safe characters, as ids are. */
const STREAM_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Where a line (or tool call) stands on its stream, when the voice service says (both or neither). */
export function lineOnStream(
  request: Pick<VoiceTranscriptRequest, 'streamId' | 'seq'>,
): { streamId: string; seq: number } | undefined {
  if (request.streamId === undefined && request.seq === undefined) return undefined;
  if (typeof request.streamId !== 'string' || !STREAM_ID.test(request.streamId)) {
    throw AppError.validation([{ field: 'streamId', message: 'streamId must be an id, given with seq' }]);
  }
  if (
    typeof request.seq !== 'number' ||
    !Number.isInteger(request.seq) ||
    request.seq < 0 ||
    request.seq > 2 ** 31 - 2
  ) {
    throw AppError.validation([{ field: 'seq', message: 'seq must be a whole number of at least 0' }]);
  }
  return { streamId: request.streamId, seq: request.seq };
}

export function nonNegative(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw AppError.validation([{ field, message: `${field} must be a number of at least 0` }]);
  }
  return value;
}
