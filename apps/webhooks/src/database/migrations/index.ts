import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { Webhooks1763800007000 } from './1763800007000-webhooks';
import { InboxPruneIndex1763900010000 } from './1763900010000-inbox-prune-index';
import { DeliveryOrder1765410000000 } from './1765410000000-delivery-order';

/** Every migration of the webhooks schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  Webhooks1763800007000,
  InboxPruneIndex1763900010000,
  DeliveryOrder1765410000000,
];
