// Node-side entry (the gateway, specs): the client's pure parts and the demo page. Browsers load the built
// voice-client.js.
export * from './dsp';
export * from './protocol';
export * from './types';
export * from './demo-page';
