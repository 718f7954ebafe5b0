import { Controller } from '@nestjs/common';
import {
  CreateProviderCredentialDto,
  RotateProviderCredentialDto,
  UpdateProviderCredentialDto,
} from '@vap/api';
import { ByIdRequest, PartnerContext, SpeechPlanRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { PartnerTiers } from '../partners/partner-tiers';
import { ProviderCredentialsService } from './provider-credentials.service';
import { SpeechPlanService } from './speech-plan.service';

/** NATS commands of provider credentials (from the gateway) and of the speech plan (from voice). */
@Controller()
export class ProviderCredentialsHandlers {
  constructor(
    private readonly credentials: ProviderCredentialsService,
    private readonly plans: SpeechPlanService,
    private readonly tiers: PartnerTiers,
  ) {}

  @Command(Subjects.agents.providerCredentialCreate)
  create(@Data() data: CreateProviderCredentialDto, @PartnerId() partnerId: string) {
    return this.credentials.create(partnerId, data);
  }

  @Command(Subjects.agents.providerCredentialList)
  list(@PartnerId() partnerId: string) {
    return this.credentials.list(partnerId);
  }

  @Command(Subjects.agents.providerCredentialGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.credentials.get(partnerId, id);
  }

  @Command(Subjects.agents.providerCredentialRotate)
  rotate(
    @Data() { id, changes }: UpdateRequest<RotateProviderCredentialDto>,
    @PartnerId() partnerId: string,
  ) {
    return this.credentials.rotate(partnerId, id, changes);
  }

  @Command(Subjects.agents.providerCredentialUpdate)
  update(
    @Data() { id, changes }: UpdateRequest<UpdateProviderCredentialDto>,
    @PartnerId() partnerId: string,
  ) {
    return this.credentials.update(partnerId, id, changes);
  }

  @Command(Subjects.agents.providerCredentialDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.credentials.remove(partnerId, id);
  }

  /**
   * For the voice service when a call's media starts. The partner's tier decides platform keys: voice asks as a
   * system caller without a snapshot, so the tier is the one the partner events last gave (base tier if none).
   */
  @Command(Subjects.agents.speechPlan)
  async plan(
    @Data() data: SpeechPlanRequest,
    @PartnerId() partnerId: string,
    @Caller({ optional: true }) partner?: PartnerContext,
  ) {
    return this.plans.plan(partnerId, await this.tiers.voiceTierFor(partnerId, partner), data);
  }
}
