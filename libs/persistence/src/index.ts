export * from './data-source-options';
export * from './migrate';
export * from './cursor-page';
export * from './claim-loop';
export * from './pg-listener';
export * from './pg-errors';
