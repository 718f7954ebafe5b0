import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';

/** Every migration of the campaigns schema, oldest first. */
export const MIGRATIONS = [MessagingTables1763800000000];
