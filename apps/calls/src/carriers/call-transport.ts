import { Inject, Injectable } from '@nestjs/common';
import { AppError, CallProvider } from '@vap/messages';
import { EntityManager } from 'typeorm';
import { Call } from '../calls/entities/call.entity';
import { CarrierAdapter } from './carrier-adapter';
import { CarrierRegistry } from './carrier-registry';

/**
 * A transport with no carrier behind it (the browser): no carrier places its calls or reports their end, so
 * the platform ends them itself, at once, through CallProgressService's one end-of-call write. It has no leg to
 * transfer or press keys on, and checks a media stream's attach itself.
 */
export interface DirectTransport {
  readonly provider: CallProvider;
  /**
   * Ends the call now: completed when it was connected (charged once), else failed; a call already ended
   * changes nothing. `reason` becomes its end_call_reason unless it has one.
   */
  endNow(callId: string, reason: string | null): Promise<void>;
  /** Before the stream's token is claimed: refuses an attach the transport does not allow (ended calls too). */
  checkStreamAttach(call: Call, headers: Record<string, string>): Promise<void>;
  /** A claim refused (409 token used, 404 ended meanwhile): the error to answer, with what it records of it. */
  streamRefused(call: Call, headers: Record<string, string>, error: AppError): Promise<AppError>;
  /** The stream attached (in the claim's transaction, the call row locked): the call is live from now. */
  streamAttached(em: EntityManager, call: Call): Promise<void>;
}

/** Multi-provider token: every transport without a carrier provides itself under it. */
export const DIRECT_TRANSPORTS = Symbol('DIRECT_TRANSPORTS');

/**
 * The transport a call runs on, by its provider: a carrier's adapter, or a transport with no carrier (the
 * browser). Live-call code asks for the latter first, and ends, transfers and attaches through what it gets.
 */
@Injectable()
export class CallTransports {
  private readonly direct = new Map<string, DirectTransport>();

  constructor(
    private readonly carriers: CarrierRegistry,
    @Inject(DIRECT_TRANSPORTS) direct: DirectTransport[],
  ) {
    for (const transport of direct) this.direct.set(transport.provider, transport);
  }

  /** The transport with no carrier the provider names, or null when a carrier carries its calls. */
  directOf(provider: string): DirectTransport | null {
    return this.direct.get(provider) ?? null;
  }

  /** The carrier's adapter; a provider without one is a 404, as with CarrierRegistry. */
  carrierOf(provider: string): CarrierAdapter {
    return this.carriers.get(provider);
  }
}
