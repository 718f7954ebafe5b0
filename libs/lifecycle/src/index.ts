export * from './parent-link';
