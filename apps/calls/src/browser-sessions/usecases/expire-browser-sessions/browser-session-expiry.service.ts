import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CallsConfig } from '../../../config/calls.config';
import { BrowserTransport } from '../../../carriers/browser/browser-transport';

/**
 * Expires browser sessions not connected within BROWSER_SESSION_TOKEN_TTL_MS: checked every quarter of it
 * (at most every 5 s), so a session is expired within that much after its expires_at, and frees its slot;
 * and ends the active ones that outlived their max duration with no end report (the stale-call sweep's rule).
 */
@Injectable()
export class BrowserSessionExpiry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BrowserSessionExpiry.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly config: CallsConfig,
    private readonly lifecycle: BrowserTransport,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(5000, Math.max(250, Math.floor(this.config.BROWSER_SESSION_TOKEN_TTL_MS / 4)));
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.lifecycle
        .expire()
        .then(async (n) => {
          if (n) this.logger.log(`${n} browser session(s) expired unconnected`);
          const stale = await this.lifecycle.endStale();
          if (stale) this.logger.warn(`${stale} browser session(s) ended past their max duration`);
        })
        .catch((err: unknown) => this.logger.warn(`browser session expiry failed: ${String(err)}`))
        .finally(() => (this.running = null));
    }, every);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
