import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateDocumentDto,
  CreateWebLinkDocumentDto,
  DocumentDto,
  DocumentListDto,
  DocumentMessageDto,
  DocumentUploadDto,
  ListDocumentsQueryDto,
  RpcRequest,
  Subjects,
} from '@vap/contracts';
import { partnerOf } from '../common/caller';
import { DocumentsService } from './documents.service';

/** NATS commands of the documents feature (queue group: agents). */
@Controller()
export class DocumentsHandlers {
  constructor(private readonly documents: DocumentsService) {}

  @MessagePattern(Subjects.agents.documentCreate)
  create(@Payload() req: RpcRequest<CreateDocumentDto>): Promise<DocumentUploadDto> {
    return this.documents.create(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.agents.documentCreateWebLink)
  createWebLink(@Payload() req: RpcRequest<CreateWebLinkDocumentDto>): Promise<DocumentDto> {
    return this.documents.createWebLink(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.agents.documentConfirm)
  confirm(@Payload() req: RpcRequest<{ id: string }>): Promise<DocumentDto> {
    return this.documents.confirm(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.agents.documentList)
  list(@Payload() req: RpcRequest<ListDocumentsQueryDto>): Promise<DocumentListDto> {
    return this.documents.list(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.agents.documentGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<DocumentDto> {
    return this.documents.get(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.agents.documentDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<DocumentMessageDto> {
    return this.documents.remove(partnerOf(req), req.data.id);
  }
}
