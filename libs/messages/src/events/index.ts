export * from './campaign-status-updated';
export * from './event-map';
