export * from './call-status';
export * from './call-events';
export * from './carrier-callback';
export * from './call-charges';
export * from './start-balance';
export * from './credits';
