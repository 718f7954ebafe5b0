export * from './call-status';
export * from './call-events';
export * from './carrier-callback';
export * from './start-call.dto';
export * from './start-call.command';
export * from './call.dto';
export * from './list-calls-query.dto';
export * from './call-charges';
