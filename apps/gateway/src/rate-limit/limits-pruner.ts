import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OperatorLockout } from '../auth/operator-lockout.service';
import { RateLimitService } from './rate-limit.service';

const PRUNE_EVERY_MS = 60_000;

/**
 * Any client address can open a window or a failure record, and every console session a window, so they
 * are pruned once they no longer count; every replica prunes, which is harmless (deletes of rows already gone).
 */
@Injectable()
export class LimitsPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LimitsPruner.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly limits: RateLimitService,
    private readonly lockout: OperatorLockout,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      Promise.all([this.limits.pruneWindows(), this.lockout.prune()]).catch((err: Error) =>
        this.logger.warn(`pruning rate-limit records failed: ${err.message}`),
      );
    }, PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
