export * from './event-catalog';
export * from './campaign-status-updated';
