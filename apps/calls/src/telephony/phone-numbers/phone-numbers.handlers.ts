import { Controller } from '@nestjs/common';
import { ImportPhoneNumberDto, ListPhoneNumbersQueryDto, UpdatePhoneNumberDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { DeletePhoneNumber } from './usecases/delete-phone-number/delete-phone-number.usecase';
import { GetPhoneNumber } from './usecases/get-phone-number/get-phone-number.usecase';
import { ImportPhoneNumber } from './usecases/import-phone-number/import-phone-number.usecase';
import { ListPhoneNumbers } from './usecases/list-phone-numbers/list-phone-numbers.usecase';
import { UpdatePhoneNumber } from './usecases/update-phone-number/update-phone-number.usecase';

/** NATS commands of phone numbers (queue group: calls). */
@Controller()
export class PhoneNumbersHandlers {
  constructor(
    private readonly importPhoneNumber: ImportPhoneNumber,
    private readonly listPhoneNumbers: ListPhoneNumbers,
    private readonly getPhoneNumber: GetPhoneNumber,
    private readonly updatePhoneNumber: UpdatePhoneNumber,
    private readonly deletePhoneNumber: DeletePhoneNumber,
  ) {}

  @Command(Subjects.calls.phoneNumberImport)
  import(@Data() data: ImportPhoneNumberDto, @PartnerId() partnerId: string) {
    return this.importPhoneNumber.execute(partnerId, data);
  }

  @Command(Subjects.calls.phoneNumberList)
  list(@Data() query: ListPhoneNumbersQueryDto, @PartnerId() partnerId: string) {
    return this.listPhoneNumbers.execute(partnerId, query);
  }

  @Command(Subjects.calls.phoneNumberGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.getPhoneNumber.execute(partnerId, id);
  }

  @Command(Subjects.calls.phoneNumberUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdatePhoneNumberDto>, @PartnerId() partnerId: string) {
    return this.updatePhoneNumber.execute(partnerId, id, changes);
  }

  @Command(Subjects.calls.phoneNumberDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deletePhoneNumber.execute(partnerId, id);
  }
}
