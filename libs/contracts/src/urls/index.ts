export * from './shown-url';
