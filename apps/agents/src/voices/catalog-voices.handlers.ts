import { Controller } from '@nestjs/common';
import { CreateCatalogVoiceDto, ListCatalogVoicesQueryDto, UpdateCatalogVoiceDto } from '@vap/api';
import { ByIdRequest, PartnerContext, Subjects, UpdateRequest, VoicePreviewRequest } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { CatalogVoicesService } from './catalog-voices.service';
import { VoicePreviewService } from './voice-preview.service';

/**
 * NATS commands of catalog management (the operator API, no partner: only the gateway may send them) and of
 * voice previews (a partner's).
 */
@Controller()
export class CatalogVoicesHandlers {
  constructor(
    private readonly catalog: CatalogVoicesService,
    private readonly previews: VoicePreviewService,
  ) {}

  @Command(Subjects.agents.catalogVoiceAdd)
  add(@Data() data: CreateCatalogVoiceDto) {
    return this.catalog.add(data);
  }

  @Command(Subjects.agents.catalogVoiceUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateCatalogVoiceDto>) {
    return this.catalog.update(id, changes);
  }

  @Command(Subjects.agents.catalogVoiceRetire)
  retire(@Data() { id }: ByIdRequest) {
    return this.catalog.retire(id);
  }

  @Command(Subjects.agents.catalogVoiceList)
  list(@Data() query: ListCatalogVoicesQueryDto) {
    return this.catalog.list(query);
  }

  @Command(Subjects.agents.voicePreview)
  preview(
    @Data() { id }: VoicePreviewRequest,
    @PartnerId() partnerId: string,
    @Caller({ optional: true }) partner?: PartnerContext,
  ) {
    return this.previews.preview(partner, partnerId, id);
  }
}
