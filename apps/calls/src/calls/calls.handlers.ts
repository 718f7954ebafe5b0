import { Controller } from '@nestjs/common';
import { ByIdRequest, ListCallsQueryDto, PartnerContext, StartCallCommand, Subjects } from '@vap/contracts';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { PartnerStanding } from '../partners/partner-standing';
import { CallsQueryService } from './calls-query.service';
import { StartCallService } from '../admission/start-call.service';

/** NATS commands of the calls feature (queue group: calls). */
@Controller()
export class CallsHandlers {
  constructor(
    private readonly starter: StartCallService,
    private readonly calls: CallsQueryService,
    private readonly standing: PartnerStanding,
  ) {}

  /** A start needs the caller's snapshot (balance, concurrency limit), not only its id. */
  @Command(Subjects.calls.callStart)
  async start(@Data() command: StartCallCommand, @Caller() partner: PartnerContext) {
    // Whoever sends the command (the gateway, or campaigns with its copy of the partner), a suspended or
    // not yet approved partner places no call.
    await this.standing.assertMayCall(partner);
    return this.starter.start(partner, command);
  }

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
