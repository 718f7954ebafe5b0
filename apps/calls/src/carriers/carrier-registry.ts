import { Inject, Injectable } from '@nestjs/common';
import { AppError, CallProvider } from '@vap/messages';
import { CARRIER_ADAPTERS, CarrierAdapter } from './carrier-adapter';

/** The adapters by provider; a provider without an adapter is a 404, as an unknown route would be. */
@Injectable()
export class CarrierRegistry {
  private readonly byProvider = new Map<string, CarrierAdapter>();

  constructor(@Inject(CARRIER_ADAPTERS) adapters: CarrierAdapter[]) {
    for (const adapter of adapters) {
      if (this.byProvider.has(adapter.provider))
        throw new Error(`two carrier adapters for ${adapter.provider}`);
      this.byProvider.set(adapter.provider, adapter);
    }
  }

  get(provider: string): CarrierAdapter {
    const adapter = this.byProvider.get(provider);
    if (!adapter) throw AppError.notFound(`Carrier ${provider}`);
    return adapter;
  }

  has(provider: string): provider is CallProvider {
    return this.byProvider.has(provider);
  }
}
