export * from './integration-app';
export * from './fake-peers';
export * from './template-database';
export * from './use-integration-app';
