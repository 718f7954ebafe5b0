import { Controller } from '@nestjs/common';
import {
  CreateProviderCredentialDto,
  ListModelsQueryDto,
  RotateProviderCredentialDto,
  UpdateProviderCredentialDto,
} from '@vap/api';
import {
  ByIdRequest,
  ModelPlanRequest,
  PartnerContext,
  SpeechPlanRequest,
  Subjects,
  UpdateRequest,
} from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { PartnerTiers } from '../partners/partner-tiers';
import { ModelCatalogService } from './model-catalog.service';
import { ModelPlanService } from './model-plan.service';
import { ProviderCredentialsService } from './provider-credentials.service';
import { SpeechPlanService } from './speech-plan.service';

/**
 * NATS commands of provider credentials and the model catalog (from the gateway), and of the speech and model
 * plans of a call (from voice; the model plan also from calls and campaigns, for analysis and test runs).
 */
@Controller()
export class ProviderCredentialsHandlers {
  constructor(
    private readonly credentials: ProviderCredentialsService,
    private readonly plans: SpeechPlanService,
    private readonly modelPlans: ModelPlanService,
    private readonly catalog: ModelCatalogService,
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

  /**
   * The models a call thinks with, for voice when a call's media starts (and calls and campaigns for analysis and
   * test runs): the tier as for the speech plan.
   */
  @Command(Subjects.agents.modelPlan)
  async modelPlan(
    @Data() data: ModelPlanRequest,
    @PartnerId() partnerId: string,
    @Caller({ optional: true }) partner?: PartnerContext,
  ) {
    return this.modelPlans.plan(partnerId, await this.tiers.voiceTierFor(partnerId, partner), data);
  }

  /** GET /models: the catalog with this account's availability. */
  @Command(Subjects.agents.modelList)
  async models(
    @Data() query: ListModelsQueryDto,
    @PartnerId() partnerId: string,
    @Caller({ optional: true }) partner?: PartnerContext,
  ) {
    return this.catalog.list(partnerId, await this.tiers.voiceTierFor(partnerId, partner), query);
  }
}
