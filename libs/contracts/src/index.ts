export * from './errors';
export * from './envelope';
export * from './messaging';
export * from './pagination';
export * from './customers';
export * from './accounts';
