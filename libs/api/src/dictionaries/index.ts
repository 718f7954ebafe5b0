export * from './dictionary.dto';
