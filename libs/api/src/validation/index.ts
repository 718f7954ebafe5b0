export * from './e164';
export * from './trim';
export * from './one-of';
export * from './if-present';
export * from './satisfies';
