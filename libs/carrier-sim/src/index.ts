// The carrier side of the platform's carrier protocols, for the sandbox carrier app and the e2e fakes: one
// implementation of signing, callbacks, REST shapes, answer markup and the simulated phone on a media stream.
export * from './carrier-signatures';
export * from './carrier-b/stream-markup';
export * from './carrier-b/signed-form';
export * from './carrier-b/call-resource';
export * from './carrier-b/media-stream';
export * from './carrier-a/media-stream';
export * from './phone/simulated-phone';
export * from './phone/agent-listener';
export * from './phone/agent-playback';
export * from './callee/callee-voice';
export * from './callee/spoken-audio';
export * from './callee/callee-scripts';
export * from './callee/callee-lines';
export * from './callee/outcomes';
