import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { ConnectionsModule } from '../telephony/connections/connections.module';
import { ContactPolicyModule } from '../telephony/contact-policy/contact-policy.module';
import { AgentSms } from './agent-sms.service';
import { MessageCallbacksService } from './message-callbacks.service';
import { MessageSendWorker } from './message-send-worker.service';
import { MessageSenderResolver } from './message-sender';
import { MessagesHandlers } from './messages.handlers';
import { MessagesService } from './messages.service';
import { SimulateInboundMessage } from './simulate-inbound-message';
import { SmsPolicyService } from './sms-policy.service';

/** SMS on the account's carrier connections: sending through the outbox, history, status and inbound webhooks. */
@Module({
  imports: [CarriersModule, ConnectionsModule, ContactPolicyModule],
  controllers: [MessagesHandlers],
  providers: [
    MessagesService,
    MessageSenderResolver,
    MessageSendWorker,
    MessageCallbacksService,
    SimulateInboundMessage,
    AgentSms,
    SmsPolicyService,
  ],
  exports: [MessagesService],
})
export class MessagesModule {}
