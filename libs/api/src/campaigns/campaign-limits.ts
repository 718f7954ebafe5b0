/** The contract's campaign limits, shared by the DTOs and the campaigns service. */
export const CAMPAIGN_CONCURRENCY_MIN = 1;
export const CAMPAIGN_CONCURRENCY_MAX = 10;
export const CAMPAIGN_DEFAULT_CONCURRENCY = 1;
export const CAMPAIGN_MAX_RETRY_COUNT = 10;
export const CAMPAIGN_MAX_DELAY_MINUTES = 7 * 24 * 60;
export const CAMPAIGN_MAX_RETRY_DELAYS = 10;
export const CAMPAIGN_MAX_CALLER_IDS = 20;
export const CAMPAIGN_NAME_MAX = 200;
export const CAMPAIGN_DESCRIPTION_MAX = 2000;
/** Rows per contacts upload, JSON or CSV. */
export const CAMPAIGN_MAX_CONTACTS_PER_UPLOAD = 10_000;
/** Size limit of a text/csv contacts upload. */
export const CAMPAIGN_CSV_BODY_LIMIT = '2mb';
/**
 * The most JSON bytes of one contact's variables: a contact travels whole in one message, of its upload's
 * batch and of each of its calls' start, so it stays well inside a batch (MESSAGE_BATCH_BYTES).
 */
export const CONTACT_VARIABLES_MAX_BYTES = 64 * 1024;

export const CAMPAIGN_ID_EXAMPLE = 'cmp_6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11';

export const CAMPAIGN_STATUSES = ['draft', 'running', 'paused', 'completed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_TYPES = ['outbound'] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

/**
 * A contact's progress: pending (never dialled), dialing (an attempt is in flight), retry_wait (a retry is
 * due at next_attempt_at), then one final status: completed, failed (attempts used up) or skipped.
 */
export const CONTACT_STATUSES = [
  'pending',
  'dialing',
  'retry_wait',
  'completed',
  'failed',
  'skipped',
] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
export const FINAL_CONTACT_STATUSES: readonly ContactStatus[] = ['completed', 'failed', 'skipped'];

/** The contract's INVALID_STATE messages, and the ones chosen for the transitions it leaves open. */
export const CampaignStateMessages = {
  start: 'only draft campaigns can start',
  pause: 'only running campaigns can be paused',
  resume: 'only paused campaigns can be resumed',
  update: 'only draft or paused campaigns can be updated',
  delete: 'running campaigns cannot be deleted; pause the campaign first',
  contacts: 'contacts cannot be added to a completed campaign',
} as const;
