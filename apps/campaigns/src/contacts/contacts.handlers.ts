import { Controller } from '@nestjs/common';
import { AddContactsBatch, ListContactsRequest } from '@vap/api';
import { Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ContactsService } from './contacts.service';

/** NATS commands of campaign contacts (queue group: campaigns). */
@Controller()
export class ContactsHandlers {
  constructor(private readonly contacts: ContactsService) {}

  @Command(Subjects.campaigns.contactsAdd)
  add(@Data() batch: AddContactsBatch, @PartnerId() partnerId: string) {
    return this.contacts.add(partnerId, batch);
  }

  @Command(Subjects.campaigns.contactsList)
  list(@Data() { id, query }: ListContactsRequest, @PartnerId() partnerId: string) {
    return this.contacts.list(partnerId, id, query ?? {});
  }
}
