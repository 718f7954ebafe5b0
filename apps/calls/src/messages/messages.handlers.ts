import { Controller, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ListMessagesQueryDto, SandboxInboundMessageDto, SendMessageDto, UpdateSmsPolicyDto } from '@vap/api';
import { ByIdRequest, CarrierCallbackIngest, RpcRequest, Subjects, VoiceSendSmsRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { AgentSms } from './agent-sms.service';
import { MessageCallbacksService } from './message-callbacks.service';
import { MessagesService } from './messages.service';
import { SimulateInboundMessage } from './simulate-inbound-message';
import { SmsPolicyService } from './sms-policy.service';

/** The partner a voice command acts for, when it names one (the voice service may not know it yet). */
const PartnerIdIfAny = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | null =>
    ctx.switchToRpc().getData<RpcRequest>().partnerId ?? null,
);

/** NATS commands of messaging (queue group: calls). */
@Controller()
export class MessagesHandlers {
  constructor(
    private readonly messages: MessagesService,
    private readonly callbacks: MessageCallbacksService,
    private readonly simulate: SimulateInboundMessage,
    private readonly agentSms: AgentSms,
    private readonly smsPolicy: SmsPolicyService,
  ) {}

  /** The agent's send_sms tool during a call (from the voice service). */
  @Command(Subjects.calls.voiceSendSms)
  sendSms(@Data() request: VoiceSendSmsRequest, @PartnerIdIfAny() partnerId: string | null) {
    return this.agentSms.execute(request, partnerId);
  }

  @Command(Subjects.calls.messageSend)
  send(@Data() data: SendMessageDto, @PartnerId() partnerId: string) {
    return this.messages.send(partnerId, data);
  }

  @Command(Subjects.calls.messagePolicyGet)
  policy(@PartnerId() partnerId: string) {
    return this.smsPolicy.get(partnerId);
  }

  @Command(Subjects.calls.messagePolicyUpdate)
  updatePolicy(@Data() data: UpdateSmsPolicyDto, @PartnerId() partnerId: string) {
    return this.smsPolicy.update(partnerId, data);
  }

  @Command(Subjects.calls.messageList)
  list(@Data() query: ListMessagesQueryDto, @PartnerId() partnerId: string) {
    return this.messages.list(partnerId, query);
  }

  @Command(Subjects.calls.messageGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.messages.get(partnerId, id);
  }

  @Command(Subjects.calls.sandboxInboundMessage)
  sandboxInbound(@Data() data: SandboxInboundMessageDto, @PartnerId() partnerId: string) {
    return this.simulate.execute(partnerId, data);
  }

  /** A carrier's delivery status callback forwarded by the gateway (callId holds the message id). */
  @Command(Subjects.calls.messageCallbackIngest)
  statusCallback(@Data() ingest: CarrierCallbackIngest) {
    return this.callbacks.status(ingest);
  }

  /** A carrier's inbound-SMS webhook forwarded by the gateway (callId holds the connection id). */
  @Command(Subjects.calls.inboundMessageIngest)
  inboundCallback(@Data() ingest: CarrierCallbackIngest) {
    return this.callbacks.inbound(ingest);
  }
}
