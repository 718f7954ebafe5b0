export * from './model-catalog.dto';
