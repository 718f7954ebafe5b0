export * from './rpc';
export * from './subjects';
export * from './command-map';
export * from './message-batches';
