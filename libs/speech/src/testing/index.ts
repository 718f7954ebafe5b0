// Fakes of the cloud speech providers, for tests: each speaks its provider's published protocol on a local port.
export * from './failure-switch';
export * from './fake-provider-server';
export * from './assemblyai-fake';
export * from './sarvam-fake';
