export * from './extraction-key';
export * from './effective-schema';
