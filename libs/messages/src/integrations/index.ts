export * from './integration-log';
