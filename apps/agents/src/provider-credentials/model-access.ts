import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { ModelAvailability } from '@vap/api';
import { ModelDeployment } from './model-deployment';
import { ModelAccount, modelAvailabilityOf } from './model-providers';
import { ProviderCredentialsService } from './provider-credentials.service';

/** The account's view of model providers, read once per request. */
@Injectable()
export class ModelAccess {
  constructor(
    private readonly credentials: ProviderCredentialsService,
    readonly deployment: ModelDeployment,
  ) {}

  async accountOf(partnerId: string, voiceTier: string, em?: EntityManager): Promise<ModelAccount> {
    return { keys: await this.credentials.providersWithKeys(partnerId, em), voiceTier };
  }

  availability(provider: string, account: ModelAccount): ModelAvailability | null {
    return modelAvailabilityOf(provider, account, this.deployment);
  }
}
