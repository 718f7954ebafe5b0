export * from './event-catalog';
export * from './campaign-status-updated';
export * from './event-payloads';
export * from './event-map';
