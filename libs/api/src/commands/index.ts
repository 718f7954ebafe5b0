export * from './public-commands';
