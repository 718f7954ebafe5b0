import { Controller } from '@nestjs/common';
import { AddContactsCommand, ListContactsRequest, Subjects } from '@vap/contracts';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ContactsService } from './contacts.service';

/** NATS commands of campaign contacts (queue group: campaigns). */
@Controller()
export class ContactsHandlers {
  constructor(private readonly contacts: ContactsService) {}

  @Command(Subjects.campaigns.contactsAdd)
  add(@Data() command: AddContactsCommand, @PartnerId() partnerId: string) {
    return this.contacts.add(partnerId, command);
  }

  @Command(Subjects.campaigns.contactsList)
  list(@Data() { id, query }: ListContactsRequest, @PartnerId() partnerId: string) {
    return this.contacts.list(partnerId, id, query ?? {});
  }
}
