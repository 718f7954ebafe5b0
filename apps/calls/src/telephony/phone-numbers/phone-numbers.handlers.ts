import { Controller } from '@nestjs/common';
import { ImportPhoneNumberDto, ListPhoneNumbersQueryDto, UpdatePhoneNumberDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { PhoneNumbersService } from './phone-numbers.service';

/** NATS commands of phone numbers (queue group: calls). */
@Controller()
export class PhoneNumbersHandlers {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @Command(Subjects.calls.phoneNumberImport)
  import(@Data() data: ImportPhoneNumberDto, @PartnerId() partnerId: string) {
    return this.numbers.import(partnerId, data);
  }

  @Command(Subjects.calls.phoneNumberList)
  list(@Data() query: ListPhoneNumbersQueryDto, @PartnerId() partnerId: string) {
    return this.numbers.list(partnerId, query);
  }

  @Command(Subjects.calls.phoneNumberGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.numbers.get(partnerId, id);
  }

  @Command(Subjects.calls.phoneNumberUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdatePhoneNumberDto>, @PartnerId() partnerId: string) {
    return this.numbers.update(partnerId, id, changes);
  }

  @Command(Subjects.calls.phoneNumberDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.numbers.remove(partnerId, id);
  }
}
