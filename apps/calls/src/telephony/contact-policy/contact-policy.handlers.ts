import { Controller } from '@nestjs/common';
import {
  CreateDoNotCallDto,
  DoNotCallExportPageRequest,
  DoNotCallImportBatch,
  DoNotCallLookupQueryDto,
  ListDoNotCallQueryDto,
  ListPolicyDecisionsQueryDto,
  UpdateContactPolicySettingsDto,
  UpdateDoNotCallDto,
} from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ContactPolicySettingsService } from './contact-policy-settings.service';
import { DoNotCallService } from './do-not-call.service';
import { PolicyDecisionsService } from './policy-decisions.service';

/** NATS commands of the contact policy (queue group: calls). */
@Controller()
export class ContactPolicyHandlers {
  constructor(
    private readonly doNotCall: DoNotCallService,
    private readonly decisions: PolicyDecisionsService,
    private readonly settings: ContactPolicySettingsService,
  ) {}

  @Command(Subjects.calls.doNotCallCreate)
  create(@Data() data: CreateDoNotCallDto, @PartnerId() partnerId: string) {
    return this.doNotCall.create(partnerId, data);
  }

  @Command(Subjects.calls.doNotCallList)
  list(@Data() query: ListDoNotCallQueryDto, @PartnerId() partnerId: string) {
    return this.doNotCall.list(partnerId, query);
  }

  @Command(Subjects.calls.doNotCallGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.doNotCall.get(partnerId, id);
  }

  @Command(Subjects.calls.doNotCallUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateDoNotCallDto>, @PartnerId() partnerId: string) {
    return this.doNotCall.update(partnerId, id, changes);
  }

  @Command(Subjects.calls.doNotCallDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.doNotCall.remove(partnerId, id);
  }

  @Command(Subjects.calls.doNotCallLookup)
  lookup(@Data() { number }: DoNotCallLookupQueryDto, @PartnerId() partnerId: string) {
    return this.doNotCall.lookup(partnerId, number);
  }

  @Command(Subjects.calls.doNotCallImport)
  import(@Data() batch: DoNotCallImportBatch, @PartnerId() partnerId: string) {
    return this.doNotCall.import(partnerId, batch);
  }

  @Command(Subjects.calls.doNotCallExportPage)
  exportPage(@Data() request: DoNotCallExportPageRequest, @PartnerId() partnerId: string) {
    return this.doNotCall.exportPage(partnerId, request);
  }

  @Command(Subjects.calls.policyDecisionList)
  decisionList(@Data() query: ListPolicyDecisionsQueryDto, @PartnerId() partnerId: string) {
    return this.decisions.list(partnerId, query);
  }

  @Command(Subjects.calls.contactPolicySettingsGet)
  settingsGet(@PartnerId() partnerId: string) {
    return this.settings.get(partnerId);
  }

  @Command(Subjects.calls.contactPolicySettingsUpdate)
  settingsUpdate(@Data() changes: UpdateContactPolicySettingsDto, @PartnerId() partnerId: string) {
    return this.settings.update(partnerId, changes);
  }
}
