import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { MESSAGING_OPTIONS, MessagingOptions } from './messaging.options';
import { NatsConnectionService } from './nats-connection.service';
import { RpcClient } from './rpc/rpc-client.service';
import { AddressedCommandServer } from './rpc/addressed-command.server';
import { EventStreamService } from './events/event-stream.service';
import { OutboxService } from './outbox/outbox.service';
import { OutboxRelayService } from './outbox/outbox-relay.service';
import { EventConsumerService } from './inbox/event-consumer.service';
import { InboxPrunerService } from './inbox/inbox-pruner.service';

/**
 * NATS for one service: commands (RpcClient, NatsRpcServer, AddressedCommandServer), the event stream, the
 * outbox relay and the durable event consumers. Needs the service's TypeORM DataSource with
 * MESSAGING_ENTITIES registered, unless `persistence: false`, which leaves only the connection and the
 * command side (commands only).
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    if (options.persistence === false) {
      return {
        module: MessagingModule,
        providers: [
          { provide: MESSAGING_OPTIONS, useValue: options },
          NatsConnectionService,
          RpcClient,
          AddressedCommandServer,
        ],
        exports: [MESSAGING_OPTIONS, NatsConnectionService, RpcClient, AddressedCommandServer],
      };
    }
    return {
      module: MessagingModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        NatsConnectionService,
        RpcClient,
        AddressedCommandServer,
        EventStreamService,
        OutboxService,
        OutboxRelayService,
        EventConsumerService,
        InboxPrunerService,
      ],
      exports: [
        MESSAGING_OPTIONS,
        NatsConnectionService,
        RpcClient,
        AddressedCommandServer,
        EventStreamService,
        OutboxService,
        OutboxRelayService,
      ],
    };
  }
}
