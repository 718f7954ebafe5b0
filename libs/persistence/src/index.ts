export * from './data-source-options';
export * from './migrate';
export * from './keyset-page';
export * from './claim-loop';
export * from './pg-listener';
export * from './pg-errors';
export * from './table-of';
export * from './timestamped.entity';
