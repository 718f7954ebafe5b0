/**
 * provider_event of the ends the stale-call sweeper records: the carrier never said the call ended. The sweeper
 * writes it and whoever follows an ended call reads it (to hang up at the carrier), so it is the progress stage's
 * word, not the sweeper's.
 */
export const STALE_CALL_EVENT = 'stale-call-timeout';
