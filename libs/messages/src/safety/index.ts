export * from './partner-patterns';
