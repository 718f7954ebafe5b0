import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AppError,
  CallDto,
  CallListDto,
  ErrorCode,
  ListCallsQueryDto,
  PartnerContext,
  RecordingUrlDto,
  RpcRequest,
  StartCallCommand,
  StartCallResult,
  Subjects,
} from '@vap/contracts';
import { PartnerStanding } from '../partners/partner-standing';
import { CallsQueryService } from './calls-query.service';
import { StartCallService } from './start-call.service';

function partnerIdOf(req: RpcRequest): string {
  if (!req.partnerId) throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs a partner');
  return req.partnerId;
}

/** A start needs the caller's snapshot (balance, concurrency limit), not only its id. */
function partnerOf(req: RpcRequest): PartnerContext {
  if (!req.partner || req.partner.id !== req.partnerId) {
    throw new AppError(ErrorCode.VALIDATION_ERROR, 'Starting a call needs the partner context');
  }
  return req.partner;
}

/** NATS commands of the calls feature (queue group: calls). */
@Controller()
export class CallsHandlers {
  constructor(
    private readonly starter: StartCallService,
    private readonly calls: CallsQueryService,
    private readonly standing: PartnerStanding,
  ) {}

  @MessagePattern(Subjects.calls.callStart)
  async start(@Payload() req: RpcRequest<StartCallCommand>): Promise<StartCallResult> {
    const partner = partnerOf(req);
    // Whoever sends the command (the gateway, or campaigns with its copy of the partner), a suspended or
    // not yet approved partner places no call.
    await this.standing.assertMayCall(partner);
    return this.starter.start(partner, req.data);
  }

  @MessagePattern(Subjects.calls.callGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<CallDto> {
    return this.calls.get(partnerIdOf(req), req.data.id);
  }

  @MessagePattern(Subjects.calls.callList)
  list(@Payload() req: RpcRequest<ListCallsQueryDto>): Promise<CallListDto> {
    return this.calls.list(partnerIdOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.callRecordingUrl)
  recordingUrl(@Payload() req: RpcRequest<{ id: string }>): Promise<RecordingUrlDto> {
    return this.calls.recordingUrl(partnerIdOf(req), req.data.id);
  }
}
