import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AddContactsCommand,
  ContactListDto,
  ContactsUploadReportDto,
  ListContactsQueryDto,
  RpcRequest,
  Subjects,
} from '@vap/contracts';
import { partnerIdOf } from '../campaigns/partner-of';
import { ContactsService } from './contacts.service';

/** NATS commands of campaign contacts (queue group: campaigns). */
@Controller()
export class ContactsHandlers {
  constructor(private readonly contacts: ContactsService) {}

  @MessagePattern(Subjects.campaigns.contactsAdd)
  add(@Payload() req: RpcRequest<AddContactsCommand>): Promise<ContactsUploadReportDto> {
    return this.contacts.add(partnerIdOf(req), req.data);
  }

  @MessagePattern(Subjects.campaigns.contactsList)
  list(@Payload() req: RpcRequest<{ id: string; query: ListContactsQueryDto }>): Promise<ContactListDto> {
    return this.contacts.list(partnerIdOf(req), req.data.id, req.data.query ?? {});
  }
}
