export * from './test-limits';
export * from './test-assertions';
export * from './test-scenario.dto';
export * from './test-run.dto';
