// Node-side entry (specs, tools): the client's pure parts. Browsers load the built voice-client.js.
export * from './dsp';
export * from './protocol';
export * from './types';
