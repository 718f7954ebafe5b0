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
import {
  CreateDoNotCallEntry,
  DeleteDoNotCallEntry,
  ExportDoNotCallPage,
  GetContactPolicySettings,
  GetDoNotCallEntry,
  ImportDoNotCallEntries,
  ListDoNotCallEntries,
  ListPolicyDecisions,
  LookUpDoNotCall,
  UpdateContactPolicySettings,
  UpdateDoNotCallEntry,
} from './usecases';

/** NATS commands of the contact policy (queue group: calls). */
@Controller()
export class ContactPolicyHandlers {
  constructor(
    private readonly createEntry: CreateDoNotCallEntry,
    private readonly listEntries: ListDoNotCallEntries,
    private readonly getEntry: GetDoNotCallEntry,
    private readonly updateEntry: UpdateDoNotCallEntry,
    private readonly deleteEntry: DeleteDoNotCallEntry,
    private readonly lookUp: LookUpDoNotCall,
    private readonly importEntries: ImportDoNotCallEntries,
    private readonly exportEntries: ExportDoNotCallPage,
    private readonly listDecisions: ListPolicyDecisions,
    private readonly getSettings: GetContactPolicySettings,
    private readonly updateSettings: UpdateContactPolicySettings,
  ) {}

  @Command(Subjects.calls.doNotCallCreate)
  create(@Data() data: CreateDoNotCallDto, @PartnerId() partnerId: string) {
    return this.createEntry.execute(partnerId, data);
  }

  @Command(Subjects.calls.doNotCallList)
  list(@Data() query: ListDoNotCallQueryDto, @PartnerId() partnerId: string) {
    return this.listEntries.execute(partnerId, query);
  }

  @Command(Subjects.calls.doNotCallGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.getEntry.execute(partnerId, id);
  }

  @Command(Subjects.calls.doNotCallUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateDoNotCallDto>, @PartnerId() partnerId: string) {
    return this.updateEntry.execute(partnerId, id, changes);
  }

  @Command(Subjects.calls.doNotCallDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deleteEntry.execute(partnerId, id);
  }

  @Command(Subjects.calls.doNotCallLookup)
  lookup(@Data() { number }: DoNotCallLookupQueryDto, @PartnerId() partnerId: string) {
    return this.lookUp.execute(partnerId, number);
  }

  @Command(Subjects.calls.doNotCallImport)
  import(@Data() batch: DoNotCallImportBatch, @PartnerId() partnerId: string) {
    return this.importEntries.execute(partnerId, batch);
  }

  @Command(Subjects.calls.doNotCallExportPage)
  exportPage(@Data() request: DoNotCallExportPageRequest, @PartnerId() partnerId: string) {
    return this.exportEntries.execute(partnerId, request);
  }

  @Command(Subjects.calls.policyDecisionList)
  decisionList(@Data() query: ListPolicyDecisionsQueryDto, @PartnerId() partnerId: string) {
    return this.listDecisions.execute(partnerId, query);
  }

  @Command(Subjects.calls.contactPolicySettingsGet)
  settingsGet(@PartnerId() partnerId: string) {
    return this.getSettings.execute(partnerId);
  }

  @Command(Subjects.calls.contactPolicySettingsUpdate)
  settingsUpdate(@Data() changes: UpdateContactPolicySettingsDto, @PartnerId() partnerId: string) {
    return this.updateSettings.execute(partnerId, changes);
  }
}
