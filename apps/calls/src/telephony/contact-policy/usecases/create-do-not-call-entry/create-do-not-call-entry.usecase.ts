import { Injectable } from '@nestjs/common';
import { CreateDoNotCallDto, DoNotCallEntryDto } from '@vap/api';
import { DoNotCallService } from '../../do-not-call.service';

/**
 * calls.do_not_call.create: a number or prefix the partner lists (number and prefix both given is a validation
 * error; one already listed is 409 naming the entry). The write is the list's own, shared with opt-outs.
 */
@Injectable()
export class CreateDoNotCallEntry {
  constructor(private readonly doNotCall: DoNotCallService) {}

  execute(partnerId: string, input: CreateDoNotCallDto): Promise<DoNotCallEntryDto> {
    return this.doNotCall.create(partnerId, input);
  }
}
