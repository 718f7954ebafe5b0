export * from './rpc';
export * from './subjects';
export * from './command-map';
export * from './nats-access';
export * from './message-batches';
