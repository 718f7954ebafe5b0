// Live call audio for the media plane: codecs, framing and pacing, and the carriers' media-stream messages.
export * from './audio';
export * from './streams';
export * from './offline';
