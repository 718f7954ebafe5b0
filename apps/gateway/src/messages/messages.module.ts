import { Module } from '@nestjs/common';
import { MessageWebhooksController } from './message-webhooks.controller';
import { MessagesController } from './messages.controller';

@Module({ controllers: [MessagesController, MessageWebhooksController] })
export class MessagesModule {}
