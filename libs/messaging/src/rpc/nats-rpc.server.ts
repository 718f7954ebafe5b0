import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Subscription } from 'nats';
import { firstValueFrom, defaultIfEmpty } from 'rxjs';
import { RpcRequest } from '@vap/messages';
import { NatsConnectionService } from '../nats-connection.service';
import { CommandResponder } from './command-responder';

/**
 * A Nest transport strategy for `@MessagePattern(subject)` handlers: each pattern is subscribed under the
 * deployment prefix with the service's queue group, so replicas share the load. Handlers receive the
 * RpcRequest; what they return is the reply's data, what they throw becomes the reply's error.
 */
export class NatsRpcServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log = new Logger('NatsRpcServer');
  private readonly responder = new CommandResponder(this.log);

  constructor(private readonly nats: NatsConnectionService) {
    super();
  }

  listen(callback: () => void): void {
    const queue = this.nats.options.serviceName;
    this.subscribe(`${queue}.health.ping`, queue, async () => ({ service: queue, ok: true }));
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      this.subscribe(pattern, queue, async (request) => {
        const result = await handler(request);
        return firstValueFrom(this.transformToObservable(result).pipe(defaultIfEmpty(null)));
      });
    }
    callback();
  }

  private subscribe(pattern: string, queue: string, run: (req: RpcRequest) => Promise<unknown>): void {
    this.subscriptions.push(
      this.responder.subscribe(this.nats.nc, this.nats.subject(pattern), {
        pattern,
        queue,
        inFlight: this.inFlight,
        run,
      }),
    );
  }

  /** Stop taking commands, then wait for the ones being handled so that none is lost in a restart. */
  async close(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.drain().catch(() => undefined)));
    await Promise.all([...this.inFlight]);
  }

  on(): void {
    // Connection events are handled by NatsConnectionService.
  }

  unwrap<T>(): T {
    return this.nats.nc as T;
  }
}
