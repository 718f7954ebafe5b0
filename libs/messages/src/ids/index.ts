export * from './uuid';
export * from './prefixed-id';
export * from './resource-ids';
