import { Injectable, Logger } from '@nestjs/common';
import { AddressedSubject, CommandReply, CommandRequest, RpcRequest } from '@vap/messages';
import { NatsConnectionService } from '../nats-connection.service';
import { CommandResponder } from './command-responder';

/** One subject token: what an address may hold (ids, not wildcards or dots). */
const ADDRESS_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The subject an addressed command travels on: `<subject>.<address>` (before the deployment prefix). */
export function addressedSubject(subject: string, address: string): string {
  if (!ADDRESS_PATTERN.test(address)) throw new Error(`not a command address: ${JSON.stringify(address)}`);
  return `${subject}.${address}`;
}

export type AddressedHandler<S extends AddressedSubject> = (
  data: CommandRequest<S>,
  request: RpcRequest<CommandRequest<S>>,
) => CommandReply<S> | Promise<CommandReply<S>>;

/** An address being served; close() stops answering it and waits for the commands being handled. */
export interface AddressedServing {
  close(): Promise<void>;
}

/**
 * Serves addressed commands (AddressedCommands): the process holding something (a live call's media session)
 * answers the commands addressed to it on a plain subscription, no queue group, so exactly the holder answers
 * and a request for something nobody holds gets no responders at once.
 */
@Injectable()
export class AddressedCommandServer {
  private readonly log = new Logger('AddressedCommandServer');
  private readonly responder = new CommandResponder(this.log);

  constructor(private readonly nats: NatsConnectionService) {}

  serve<S extends AddressedSubject>(
    subject: S,
    address: string,
    handler: AddressedHandler<S>,
  ): AddressedServing {
    const pattern = addressedSubject(subject, address);
    const inFlight = new Set<Promise<void>>();
    const run = async (request: RpcRequest) =>
      handler(request.data as CommandRequest<S>, request as RpcRequest<CommandRequest<S>>);
    // Metrics and spans name the subject, not the address: one series per command, not per call.
    const sub = this.responder.subscribe(this.nats.nc, this.nats.subject(pattern), {
      pattern: subject,
      name: pattern,
      inFlight,
      run,
    });
    let closing: Promise<void> | null = null;
    return {
      close: () =>
        (closing ??= (async () => {
          if (!sub.isClosed()) await sub.drain().catch(() => undefined);
          await Promise.all([...inFlight]);
        })()),
    };
  }
}
