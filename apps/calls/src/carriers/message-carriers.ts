import { Injectable } from '@nestjs/common';
import { AppError } from '@vap/messages';
import { CarrierAMessages } from './carrier-a/carrier-a-messages';
import { CarrierAAdapter } from './carrier-a/carrier-a.adapter';
import { CarrierBMessages } from './carrier-b/carrier-b-messages';
import { CarrierBAdapter } from './carrier-b/carrier-b.adapter';
import { MessageCarrier } from './message-carrier';
import { SandboxLineCarrier } from './sandbox-line.carrier';

/** The carriers' message APIs by provider; the sandbox is carrier_b's at the simulator, as for calls. */
@Injectable()
export class MessageCarriers {
  private readonly byProvider: Map<string, MessageCarrier>;

  constructor(a: CarrierAAdapter, b: CarrierBAdapter, sandbox: SandboxLineCarrier) {
    this.byProvider = new Map<string, MessageCarrier>([
      [a.provider, new CarrierAMessages(a)],
      [b.provider, new CarrierBMessages(b)],
      [sandbox.provider, new CarrierBMessages(sandbox)],
    ]);
  }

  /** A provider without a message API is a 404, as an unknown route would be. */
  get(provider: string): MessageCarrier {
    const carrier = this.byProvider.get(provider);
    if (!carrier) throw AppError.notFound(`Carrier ${provider}`);
    return carrier;
  }
}
