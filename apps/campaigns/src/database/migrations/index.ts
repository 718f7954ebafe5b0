import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { CampaignsCore1763800007000 } from './1763800007000-campaigns-core';
import { InboxPruneIndex1763900010000 } from './1763900010000-inbox-prune-index';
import { PartnerSnapshotVersion1763900020000 } from './1763900020000-partner-snapshot-version';
import { ContactSkipReason1764200010000 } from './1764200010000-contact-skip-reason';
import { TestRuns1765400010000 } from './1765400010000-test-runs';
import { PartnerSnapshotRateCard1765400600000 } from './1765400600000-partner-snapshot-rate-card';

/** Every migration of the campaigns schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  CampaignsCore1763800007000,
  InboxPruneIndex1763900010000,
  PartnerSnapshotVersion1763900020000,
  ContactSkipReason1764200010000,
  TestRuns1765400010000,
  PartnerSnapshotRateCard1765400600000,
];
