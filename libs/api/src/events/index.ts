export * from './event-catalog';
export * from './event-payloads';
export * from './event-map';
