export * from './start-call.dto';
export * from './start-call.command';
export * from './call.dto';
export * from './list-calls-query.dto';
