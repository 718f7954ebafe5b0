import { Msg, Subscription } from 'nats';
import {
  AddressedSubjects,
  AppError,
  CommandMap,
  CommandReply,
  CommandRequest,
  CommandSubject,
  ErrorCode,
  PartnerContext,
  RpcReply,
  RpcRequest,
  Subjects,
} from '@vap/messages';
import { decodeJson, encodeJson, NatsConnectionService } from '@vap/messaging';

/** What a fake peer's handler is told besides the data: who the command acts for. */
export interface PeerRequestContext {
  partnerId: string | null;
  /** The partner's snapshot the command carries (commands made for a partner's account), as the peer gets it. */
  partner: PartnerContext | null;
  requestId: string;
}

export type PeerHandler<S extends CommandSubject> = (
  request: CommandRequest<S>,
  context: PeerRequestContext,
) => CommandReply<S> | Promise<CommandReply<S>>;

/** Every named command subject (Subjects and AddressedSubjects), the only ones a fake peer may answer. */
function namedSubjects(): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node === 'string') names.add(node);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(Subjects);
  walk(AddressedSubjects);
  return names;
}

const ADDRESSED = new Set<string>(
  Object.values(AddressedSubjects).flatMap((s) => Object.values(s) as string[]),
);

/**
 * The other services as the app under test meets them: every command of another service is answered over real
 * NATS in the platform's reply envelope, by the handler a spec set with answer(), or else at once with an error
 * naming the subject (recorded in `unanswered`), so a spec that forgot a peer fails fast instead of timing out.
 */
export class FakePeers {
  private readonly handlers = new Map<string, (req: RpcRequest) => Promise<unknown>>();
  private readonly subscriptions: Subscription[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** Commands that arrived for a subject no answer() was given for. */
  readonly unanswered: string[] = [];
  /** Every command a fake peer received, in order. */
  readonly received: { subject: string; partnerId: string | null; data: unknown }[] = [];

  constructor(
    private readonly nats: NatsConnectionService,
    /** The service under test: its own subjects are its to answer. */
    private readonly ownService: string,
  ) {}

  /** Listens on every other service's command subjects. */
  async start(): Promise<void> {
    for (const subject of namedSubjects()) {
      if (subject.startsWith(`${this.ownService}.`)) continue;
      const wire = this.nats.subject(ADDRESSED.has(subject) ? `${subject}.*` : subject);
      this.subscriptions.push(
        this.nats.nc.subscribe(wire, {
          callback: (err, msg) => !err && this.track(this.handle(subject, msg)),
        }),
      );
    }
    await this.nats.nc.flush();
  }

  /**
   * Answers `subject` with `handler` (replacing an earlier one): its request and reply types are the subject's in
   * CommandMap. A thrown AppError reaches the caller as that error. Refuses a subject that is not a named command
   * subject of another service.
   */
  answer<S extends CommandSubject>(subject: S, handler: PeerHandler<S>): this {
    if (!namedSubjects().has(subject)) throw new Error(`${subject} is not a named command subject`);
    if (subject.startsWith(`${this.ownService}.`)) {
      throw new Error(
        `${subject} is the ${this.ownService} service's own command: the app under test answers it`,
      );
    }
    this.handlers.set(subject, (req) =>
      Promise.resolve(
        handler(req.data as CommandMap[S]['request'], {
          partnerId: req.partnerId ?? null,
          partner: req.partner ?? null,
          requestId: req.requestId,
        }),
      ),
    );
    return this;
  }

  async stop(): Promise<void> {
    for (const sub of this.subscriptions) sub.unsubscribe();
    await Promise.allSettled([...this.pending]);
  }

  private track(job: Promise<void>): void {
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  private async handle(subject: string, msg: Msg): Promise<void> {
    let reply: RpcReply;
    try {
      const request = decodeJson<RpcRequest>(msg.data);
      this.received.push({ subject, partnerId: request.partnerId ?? null, data: request.data });
      const handler = this.handlers.get(subject);
      if (!handler) {
        this.unanswered.push(subject);
        throw new AppError(
          ErrorCode.INTERNAL_ERROR,
          `No fake peer answers ${subject}: give one with peers.answer('${subject}', ...)`,
        );
      }
      reply = { ok: true, data: (await handler(request)) ?? null };
    } catch (err) {
      const error =
        err instanceof AppError
          ? err
          : AppError.internal(
              `fake peer for ${subject} threw: ${err instanceof Error ? err.message : String(err)}`,
            );
      reply = { ok: false, error: error.toPayload() };
    }
    msg.respond(encodeJson(reply));
  }
}
