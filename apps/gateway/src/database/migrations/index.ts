import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { Accounts1763800000100 } from './1763800000100-accounts';
import { IdempotencyKeys1763800004000 } from './1763800004000-idempotency-keys';
import { LedgerReferences1763800009100 } from './1763800009100-ledger-references';

/** Every migration of the gateway schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  Accounts1763800000100,
  IdempotencyKeys1763800004000,
  LedgerReferences1763800009100,
];
