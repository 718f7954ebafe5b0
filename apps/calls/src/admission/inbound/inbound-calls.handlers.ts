import { Controller } from '@nestjs/common';
import { SandboxInboundCallDto } from '@vap/api';
import { CarrierCallbackIngest, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { InboundCallbackService } from './inbound-callback.service';
import { SandboxInboundService } from './sandbox-inbound.service';

/** NATS commands of inbound calls (queue group: calls). */
@Controller()
export class InboundCallsHandlers {
  constructor(
    private readonly sandbox: SandboxInboundService,
    private readonly callbacks: InboundCallbackService,
  ) {}

  @Command(Subjects.calls.sandboxInboundCall)
  sandboxInbound(@Data() data: SandboxInboundCallDto, @PartnerId() partnerId: string) {
    return this.sandbox.simulate(partnerId, data);
  }

  /** A carrier's inbound-call webhook forwarded by the gateway (callId holds the connection id). */
  @Command(Subjects.calls.inboundCallbackIngest)
  inboundCallback(@Data() ingest: CarrierCallbackIngest) {
    return this.callbacks.ingest(ingest);
  }
}
