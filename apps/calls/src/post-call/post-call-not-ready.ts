/**
 * The job cannot finish yet (a report it waits for has not arrived): retried later, logged quietly. After
 * its last waiting attempt the job completes with what it has.
 */
export class PostCallNotReady extends Error {}
