export * from './knowledge-limits';
export * from './knowledge-search';
