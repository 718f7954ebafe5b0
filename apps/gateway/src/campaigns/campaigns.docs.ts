import {
  CAMPAIGN_CSV_BODY_LIMIT,
  CAMPAIGN_MAX_CONTACTS_PER_UPLOAD,
  CONTACT_VARIABLES_MAX_BYTES,
} from '@vap/api';
import { MESSAGE_BATCH_BYTES } from '@vap/messages';

/** OpenAPI texts of the campaign routes: the state table and the dispatch rules partners rely on. */
export const CAMPAIGN_DESCRIPTION = `
A campaign dials its contacts with one agent from its caller IDs (\`phone_number_ids\`, used in turn;
omitted: the account's default from-number). It starts as \`draft\`.

| State | Trigger | Next state |
|---|---|---|
| draft | POST /campaigns/{id}/start (caller IDs active, at least one contact, balance for one 30-second call) | running |
| running | POST /campaigns/{id}/pause | paused (calls in flight finish, no new calls) |
| paused | POST /campaigns/{id}/resume | running |
| running | every contact final (completed, failed or skipped) | completed |
| running | the platform cannot dial on (caller ID gone, balance spent, agent deleted, account suspended) | paused, with pause_reason |

**Dispatch.** At most min(concurrency_limit, the account's concurrency limit) calls of a campaign are in
flight, and the account's campaigns together never exceed the account limit. A slot refills as soon as
call.status.updated reports concurrency_released. While retries wait, retry_concurrency slots are kept
for them. Calls carry \`client_reference_id\` = the attempt id (\`cma_...\`) and the contact's variables.

**Retries.** An attempt that ends failed, busy or no_answer is retried up to retry_count times, after
retry_delays_minutes[i] (the last value repeats) and never sooner than cooldown_minutes after the previous
attempt ended. completed: the contact is completed; canceled: skipped; no retries left: failed.

Every status move sends the webhook event campaign.status.updated.
`;

export const START_DESCRIPTION = `
draft -> running. Optional body: concurrency_limit (1..10, clamped at dispatch by the account limit) and
retry_concurrency (0..the resulting concurrency_limit); omitted fields keep their value.

Refusals (the campaign stays draft): not draft: **409 INVALID_STATE** "only draft campaigns can start";
a caller ID deleted or inactive: **409 CALLER_ID_INACTIVE**; no contacts: **409 NO_CONTACTS**; balance below
one 30-second call at the calls service's per-minute price (default INR 2.00): **403 INSUFFICIENT_BALANCE**.
INVALID_STATE answers 409, like every state conflict of this API.
`;

export const CONTACTS_DESCRIPTION = `
Adds contacts to a draft, paused or running campaign (a completed one: 409 INVALID_STATE). Two forms:

- \`application/json\`: \`{ "contacts": [{ "phone_number": "+9198...", "variables": {...}, "external_id": "..." }] }\`
- \`text/csv\` (up to ${CAMPAIGN_CSV_BODY_LIMIT}): a header row with a \`phone_number\` column, optional
  \`external_id\` and \`timezone\`; every other column becomes a pre-call variable of that name.

At most ${CAMPAIGN_MAX_CONTACTS_PER_UPLOAD} rows per upload. Rows are judged one by one: the report lists each
row, in order, as accepted or rejected with a reason: invalid_number (not E.164), duplicate (already in the
campaign, or earlier in the same upload), invalid_variables (not an object, or more than
${CONTACT_VARIABLES_MAX_BYTES / 1024} KB as JSON), invalid_external_id, invalid_timezone. Accepted contacts are
listed with their ids by GET /campaigns/{id}/contacts, in upload order.

The valid rows are added in batches of at most ${MESSAGE_BATCH_BYTES / 1024} KB, each in one transaction, one
after the other, so the report is the one a single transaction would give; an upload answered 502 part-way
keeps its first batches, and sent again reports their rows duplicate.
`;
