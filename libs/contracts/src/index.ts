export * from './errors';
export * from './envelope';
export * from './messaging';
