export * from './knowledge.dto';
