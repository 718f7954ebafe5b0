export * from './rpc';
export * from './subjects';
