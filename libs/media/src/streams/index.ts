export * from './carrier-a-stream';
export * from './carrier-b-stream';
export * from './media-stream-adapters';
export * from './media-stream-event';
export * from './media-url';
export * from './media-base-url-constraint';
export * from './stream-close-codes';
export * from './stream-token';
export type { StreamParseError, StreamParseErrorReason, StreamParseResult } from './stream-message-fields';
