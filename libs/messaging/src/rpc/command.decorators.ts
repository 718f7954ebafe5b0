import { createParamDecorator, ExecutionContext, UseFilters } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  AddressedSubject,
  AppError,
  CommandReply,
  CommandRequest,
  CommandSubject,
  ErrorCode,
  PartnerContext,
  RpcRequest,
} from '@vap/messages';
import { CommandExceptionFilter } from './command-exception.filter';
import { CommandValidationPipe } from './command-validation.pipe';

function requestOf(ctx: ExecutionContext): RpcRequest {
  return ctx.switchToRpc().getData<RpcRequest>();
}

/** A parameter that is the caller (@PartnerId, @Caller) rather than the command's data. */
type CallerParam = string | PartnerContext | undefined;

/**
 * What the compiler checks of a @Command(subject) method, against CommandMap:
 * - it resolves to the subject's reply (or a subtype of it);
 * - its first parameter, unless that is the caller, accepts the subject's request.
 * Data taken in another position is not checked, so handlers take @Data() first. (Methods compare their
 * parameters bivariantly, hence the explicit one-way checks rather than a function-type constraint.)
 */
// One-element tuples keep the checks from distributing over union types (such as a request of either of two shapes).
type ChecksReply<S extends CommandSubject, R> = [Awaited<R>] extends [CommandReply<S>]
  ? unknown
  : { 'handler does not resolve to the reply of': S };
type ChecksData<S extends CommandSubject, P extends unknown[]> = P extends [infer D, ...unknown[]]
  ? [D] extends [CallerParam]
    ? unknown
    : [CommandRequest<S>] extends [D]
      ? unknown
      : { 'handler data does not accept the request of': S }
  : unknown;

/** One filter for every handler: a database outage answers 502 (see CommandExceptionFilter). */
const commandFilters = UseFilters(new CommandExceptionFilter());

/**
 * Handles one command subject of CommandMap (a Nest @MessagePattern served by NatsRpcServer). Parameters
 * come from @Data(), @PartnerId() and @Caller(). Addressed commands go to AddressedCommandServer instead.
 */
export function Command<S extends Exclude<CommandSubject, AddressedSubject>>(subject: S) {
  const pattern = MessagePattern(subject);
  return <P extends unknown[], R>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<(...args: P) => R> & ChecksReply<S, R> & ChecksData<S, P>,
  ): void => {
    pattern(target, key, descriptor);
    commandFilters(target, key, descriptor);
  };
}

const commandData = createParamDecorator((_: unknown, ctx: ExecutionContext) => requestOf(ctx).data);
/** One pipe for every handler: its cache of which classes carry rules is then shared. */
const commandValidation = new CommandValidationPipe();

/** The command's data, validated and transformed first when its declared type is a class-validator DTO. */
export const Data = (): ParameterDecorator => commandData(commandValidation);

/** The id of the partner the command acts for; a command without one is refused with 400. */
export const PartnerId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const { partnerId } = requestOf(ctx);
  if (!partnerId) throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs a partner');
  return partnerId;
});

export interface CallerOptions {
  /** Give undefined instead of refusing a command that carries no snapshot (default: required). */
  optional?: boolean;
}

/**
 * The partner's snapshot as the gateway authenticated it (tier, limits, balance), for commands that need
 * more than the id. Required by default: a command without it, or whose snapshot is of another partner
 * than the one it acts for, is refused with 400.
 */
export const Caller = createParamDecorator(
  (options: CallerOptions | undefined, ctx: ExecutionContext): PartnerContext | undefined => {
    const { partner, partnerId } = requestOf(ctx);
    if (partner && partnerId && partner.id === partnerId) return partner;
    if (options?.optional && !partner) return undefined;
    throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs the partner context');
  },
);
