import { Controller } from '@nestjs/common';
import { SandboxInboundCallDto } from '@vap/api';
import { CarrierCallbackIngest, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { AnswerInboundCall } from './usecases/answer-inbound-call/answer-inbound-call.usecase';
import { SimulateInboundCall } from './usecases/simulate-inbound-call/simulate-inbound-call.usecase';

/** NATS commands of inbound calls (queue group: calls). */
@Controller()
export class InboundCallsHandlers {
  constructor(
    private readonly simulateInboundCall: SimulateInboundCall,
    private readonly answerInboundCall: AnswerInboundCall,
  ) {}

  @Command(Subjects.calls.sandboxInboundCall)
  sandboxInbound(@Data() data: SandboxInboundCallDto, @PartnerId() partnerId: string) {
    return this.simulateInboundCall.execute(partnerId, data);
  }

  /** A carrier's inbound-call webhook forwarded by the gateway (callId holds the connection id). */
  @Command(Subjects.calls.inboundCallbackIngest)
  inboundCallback(@Data() ingest: CarrierCallbackIngest) {
    return this.answerInboundCall.execute(ingest);
  }
}
