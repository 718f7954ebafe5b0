export * from './e164';
export * from './trim';
