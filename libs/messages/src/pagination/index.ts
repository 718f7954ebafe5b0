export * from './cursor';
