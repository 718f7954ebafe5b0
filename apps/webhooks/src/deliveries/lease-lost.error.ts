/** A delivery's lease ran out and another worker claimed it: this worker's outcome is discarded. */
export class LeaseLostError extends Error {
  constructor(readonly deliveryId: string) {
    super(`delivery ${deliveryId} is no longer claimed by this worker`);
    this.name = 'LeaseLostError';
  }
}
