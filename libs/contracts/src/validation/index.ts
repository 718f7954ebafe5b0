export * from './validation-pipe';
