export * from './custom-function-rules';
export * from './custom-function.dto';
export * from './response-path';
