import { Controller } from '@nestjs/common';
import { StartCallCommand } from '@vap/api';
import { PartnerContext, Subjects } from '@vap/messages';
import { Caller, Command, Data } from '@vap/messaging';
import { PartnerStanding } from '../partners/partner-standing';
import { StartCall } from './usecases/start-call/start-call.usecase';

/** The start of a call (queue group: calls). */
@Controller()
export class AdmissionHandlers {
  constructor(
    private readonly startCall: StartCall,
    private readonly standing: PartnerStanding,
  ) {}

  /** A start needs the caller's snapshot (balance, concurrency limit), not only its id. */
  @Command(Subjects.calls.callStart)
  async start(@Data() command: StartCallCommand, @Caller() partner: PartnerContext) {
    // Whoever sends the command (the gateway, or campaigns with its copy of the partner), a suspended or
    // not yet approved partner places no call.
    await this.standing.assertMayCall(partner);
    return this.startCall.execute(partner, command);
  }
}
