import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { Accounts1763800000100 } from './1763800000100-accounts';
import { IdempotencyKeys1763800004000 } from './1763800004000-idempotency-keys';
import { LedgerReferences1763800009100 } from './1763800009100-ledger-references';
import { ClientAddressLimits1763800009300 } from './1763800009300-client-address-limits';
import { InboxPruneIndex1763900010000 } from './1763900010000-inbox-prune-index';
import { PartnerVersion1763900020000 } from './1763900020000-partner-version';
import { ConsoleUsers1764900060000 } from './1764900060000-console-users';
import { ApiKeyScopes1764900070000 } from './1764900070000-api-key-scopes';
import { LedgerTransactions1765000010000 } from './1765000010000-ledger-transactions';
import { ConsoleUsersPerAccount1765000060000 } from './1765000060000-console-users-per-account';
import { AccountRateLimits1765100030000 } from './1765100030000-account-rate-limits';
import { LedgerPlatformSpeech1765200050000 } from './1765200050000-ledger-platform-speech';
import { ConsoleRateLimits1765300010000 } from './1765300010000-console-rate-limits';
import { ApiKeyIssuer1765300020000 } from './1765300020000-api-key-issuer';
import { ResellerClients1765400500000 } from './1765400500000-reseller-clients';
import { ResellerClientHolds1765400710000 } from './1765400710000-reseller-client-holds';
import { LedgerModelUsage1765600200000 } from './1765600200000-ledger-model-usage';
import { PublishableKeys1765700100000 } from './1765700100000-publishable-keys';

/** Every migration of the gateway schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  Accounts1763800000100,
  IdempotencyKeys1763800004000,
  LedgerReferences1763800009100,
  ClientAddressLimits1763800009300,
  InboxPruneIndex1763900010000,
  PartnerVersion1763900020000,
  ConsoleUsers1764900060000,
  ApiKeyScopes1764900070000,
  LedgerTransactions1765000010000,
  ConsoleUsersPerAccount1765000060000,
  AccountRateLimits1765100030000,
  LedgerPlatformSpeech1765200050000,
  ConsoleRateLimits1765300010000,
  ApiKeyIssuer1765300020000,
  ResellerClients1765400500000,
  ResellerClientHolds1765400710000,
  LedgerModelUsage1765600200000,
  PublishableKeys1765700100000,
];
