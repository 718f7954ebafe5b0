import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CampaignDeletedDto,
  CampaignDto,
  CampaignListDto,
  CreateCampaignDto,
  ListCampaignsQueryDto,
  RpcRequest,
  StartCampaignDto,
  Subjects,
  UpdateCampaignDto,
} from '@vap/contracts';
import { CampaignLifecycle } from './campaign-lifecycle.service';
import { CampaignsService } from './campaigns.service';
import { partnerIdOf, partnerOf } from './partner-of';

/** NATS commands of campaigns (queue group: campaigns). */
@Controller()
export class CampaignsHandlers {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly lifecycle: CampaignLifecycle,
  ) {}

  @MessagePattern(Subjects.campaigns.campaignCreate)
  create(@Payload() req: RpcRequest<CreateCampaignDto>): Promise<CampaignDto> {
    return this.campaigns.create(partnerIdOf(req), req.data);
  }

  @MessagePattern(Subjects.campaigns.campaignList)
  list(@Payload() req: RpcRequest<ListCampaignsQueryDto>): Promise<CampaignListDto> {
    return this.campaigns.list(partnerIdOf(req), req.data);
  }

  @MessagePattern(Subjects.campaigns.campaignGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<CampaignDto> {
    return this.campaigns.get(partnerIdOf(req), req.data.id);
  }

  @MessagePattern(Subjects.campaigns.campaignUpdate)
  update(@Payload() req: RpcRequest<{ id: string; changes: UpdateCampaignDto }>): Promise<CampaignDto> {
    return this.campaigns.update(partnerIdOf(req), req.data.id, req.data.changes);
  }

  @MessagePattern(Subjects.campaigns.campaignDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<CampaignDeletedDto> {
    return this.campaigns.delete(partnerIdOf(req), req.data.id);
  }

  @MessagePattern(Subjects.campaigns.campaignStart)
  start(@Payload() req: RpcRequest<{ id: string; options: StartCampaignDto }>): Promise<CampaignDto> {
    return this.lifecycle.start(partnerOf(req), req.data.id, req.data.options ?? {});
  }

  @MessagePattern(Subjects.campaigns.campaignPause)
  pause(@Payload() req: RpcRequest<{ id: string }>): Promise<CampaignDto> {
    return this.lifecycle.pause(partnerIdOf(req), req.data.id);
  }

  @MessagePattern(Subjects.campaigns.campaignResume)
  resume(@Payload() req: RpcRequest<{ id: string }>): Promise<CampaignDto> {
    return this.lifecycle.resume(partnerOf(req), req.data.id);
  }
}
