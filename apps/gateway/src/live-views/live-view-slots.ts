import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '@vap/messages';
import { GatewayConfig } from '../config/gateway.config';

/**
 * How many live views are open on this replica per console session and per account: a view holds a
 * connection, timers and a registration until it closes, so their number is bounded
 * (CONSOLE_LIVE_STREAMS_PER_SESSION, CONSOLE_LIVE_STREAMS_PER_ACCOUNT). Counts exist only while above zero.
 */
@Injectable()
export class LiveViewSlots {
  private readonly bySession = new Map<string, number>();
  private readonly byAccount = new Map<string, number>();

  constructor(private readonly config: GatewayConfig) {}

  /** Takes a slot of the session and of the account, or 429 LIMIT_REACHED; answers its release (idempotent). */
  acquire(sessionKey: string, partnerId: string): () => void {
    const session = this.bySession.get(sessionKey) ?? 0;
    const account = this.byAccount.get(partnerId) ?? 0;
    if (session >= this.config.CONSOLE_LIVE_STREAMS_PER_SESSION)
      throw new AppError(
        ErrorCode.LIMIT_REACHED,
        `This console session already follows ${session} live views, the most it may at once. Close another page that follows a call and try again.`,
      );
    if (account >= this.config.CONSOLE_LIVE_STREAMS_PER_ACCOUNT)
      throw new AppError(
        ErrorCode.LIMIT_REACHED,
        `This account's console users already follow ${account} live views, the most they may at once. Close another page that follows a call and try again.`,
      );
    this.bySession.set(sessionKey, session + 1);
    this.byAccount.set(partnerId, account + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.bySession, sessionKey);
      decrement(this.byAccount, partnerId);
    };
  }

  /** Views open now for the session and for the account. */
  open(sessionKey: string, partnerId: string): { session: number; account: number } {
    return { session: this.bySession.get(sessionKey) ?? 0, account: this.byAccount.get(partnerId) ?? 0 };
  }
}

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 0) - 1;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
