export * from './secret-box';
export * from './secrets-key';
export * from './secrets-key-constraint';
export * from './development-secrets';
export * from './derived-keys';
