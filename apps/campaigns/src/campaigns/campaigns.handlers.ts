import { Controller } from '@nestjs/common';
import { CreateCampaignDto, ListCampaignsQueryDto, StartCampaignRequest, UpdateCampaignDto } from '@vap/api';
import { ByIdRequest, PartnerContext, Subjects, UpdateRequest } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { CampaignLifecycle } from './campaign-lifecycle.service';
import { CampaignsService } from './campaigns.service';

/** NATS commands of campaigns (queue group: campaigns). Start and resume dial with the partner's snapshot. */
@Controller()
export class CampaignsHandlers {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly lifecycle: CampaignLifecycle,
  ) {}

  @Command(Subjects.campaigns.campaignCreate)
  create(@Data() data: CreateCampaignDto, @PartnerId() partnerId: string) {
    return this.campaigns.create(partnerId, data);
  }

  @Command(Subjects.campaigns.campaignList)
  list(@Data() query: ListCampaignsQueryDto, @PartnerId() partnerId: string) {
    return this.campaigns.list(partnerId, query);
  }

  @Command(Subjects.campaigns.campaignGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.campaigns.get(partnerId, id);
  }

  @Command(Subjects.campaigns.campaignUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateCampaignDto>, @PartnerId() partnerId: string) {
    return this.campaigns.update(partnerId, id, changes);
  }

  @Command(Subjects.campaigns.campaignDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.campaigns.delete(partnerId, id);
  }

  @Command(Subjects.campaigns.campaignStart)
  start(@Data() { id, options }: StartCampaignRequest, @Caller() partner: PartnerContext) {
    return this.lifecycle.start(partner, id, options ?? {});
  }

  @Command(Subjects.campaigns.campaignPause)
  pause(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.lifecycle.pause(partnerId, id);
  }

  @Command(Subjects.campaigns.campaignResume)
  resume(@Data() { id }: ByIdRequest, @Caller() partner: PartnerContext) {
    return this.lifecycle.resume(partner, id);
  }
}
