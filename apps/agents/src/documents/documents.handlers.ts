import { Controller } from '@nestjs/common';
import { CreateDocumentDto, CreateWebLinkDocumentDto, ListDocumentsQueryDto } from '@vap/api';
import { ByIdRequest, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { DocumentsService } from './documents.service';

/** NATS commands of the documents feature (queue group: agents). */
@Controller()
export class DocumentsHandlers {
  constructor(private readonly documents: DocumentsService) {}

  @Command(Subjects.agents.documentCreate)
  create(@Data() data: CreateDocumentDto, @PartnerId() partnerId: string) {
    return this.documents.create(partnerId, data);
  }

  @Command(Subjects.agents.documentCreateWebLink)
  createWebLink(@Data() data: CreateWebLinkDocumentDto, @PartnerId() partnerId: string) {
    return this.documents.createWebLink(partnerId, data);
  }

  @Command(Subjects.agents.documentConfirm)
  confirm(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.documents.confirm(partnerId, id);
  }

  @Command(Subjects.agents.documentList)
  list(@Data() query: ListDocumentsQueryDto, @PartnerId() partnerId: string) {
    return this.documents.list(partnerId, query);
  }

  @Command(Subjects.agents.documentGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.documents.get(partnerId, id);
  }

  @Command(Subjects.agents.documentDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.documents.remove(partnerId, id);
  }
}
