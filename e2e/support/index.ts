export * from './env';
export * from './api';
export * from './partners';
export * from './https-receiver';
export * from './contract-fields';
export * from './openapi-conformance';
export * from './own-platform';
export * from './raw-http';
