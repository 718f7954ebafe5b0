import { isDatabaseUnavailable } from '@vap/persistence';
import { Call } from '../../../calls/entities/call.entity';

/** The first and the longest wait between two tries of a statement while the database is down. */
const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 1000;

/** When an admitted call's placement grace ends: the start dials it before this or never. */
export function placementDeadline(call: Pick<Call, 'createdAt'>, graceSecs: number): number {
  return (call.createdAt?.getTime() ?? Date.now()) + graceSecs * 1000;
}

/**
 * Runs a step of an admitted call's start, tried again while the database cannot be reached (a restart, a
 * failover: isDatabaseUnavailable) until the placement deadline, so an outage shorter than the grace delays
 * the dial rather than failing the call. Any other error, or an outage that outlasts the deadline, is thrown
 * as it is: the call is then left to PlacementRecovery as before. Only steps that may run twice belong here
 * (a read, a whole transaction, the dial's conditional claim).
 */
export async function whileDatabaseDown<T>(
  work: () => Promise<T>,
  deadline: number,
  onRetry: (err: unknown) => void = () => undefined,
): Promise<T> {
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return await work();
    } catch (err) {
      const left = deadline - Date.now();
      if (!isDatabaseUnavailable(err) || left <= 0) throw err;
      onRetry(err);
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  }
}
