import { Controller } from '@nestjs/common';
import { ListCallsQueryDto } from '@vap/api';
import { ByIdRequest, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { CallsQueryService } from './calls-query.service';

/** Reads of the call record (queue group: calls). */
@Controller()
export class CallsHandlers {
  constructor(private readonly calls: CallsQueryService) {}

  @Command(Subjects.calls.callGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.calls.get(partnerId, id);
  }

  @Command(Subjects.calls.callList)
  list(@Data() query: ListCallsQueryDto, @PartnerId() partnerId: string) {
    return this.calls.list(partnerId, query);
  }

  @Command(Subjects.calls.callRecordingUrl)
  recordingUrl(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.calls.recordingUrl(partnerId, id);
  }
}
