export * from './agent-limits';
export * from './spoken-languages';
export * from './tool-ack-config';
export * from './turn-taking';
export * from './custom-functions';
export * from './dtmf';
export * from './transcriber';
export * from './analysis';
