import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  AppError,
  CallSegment,
  ErrorCode,
  HANDOFF_LIMITS,
  isUuid,
  Subjects,
  VoiceHandoffReply,
  VoiceHandoffRequest,
} from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { isTerminalStatus } from '../../../calls/call-status-machine';
import { Call } from '../../../calls/entities/call.entity';
import { CallSession } from '../../../calls/entities/call-session.entity';
import { findVoiceCall } from '../../voice-calls';

const REASON_MAX = 500;

/**
 * calls.voice.handoff: the agent holding a live call hands it to one of the agents it may hand off to (its
 * snapshot's handoffs: whatever can send the command must not put any other agent on the call). The next agent's
 * snapshot is taken now by the agents service, from its record and functions as they are, and becomes the call's current agent; the
 * session's segments record who held the call and why it moved on. The call keeps its id, charge and events.
 */
@Injectable()
export class HandOffCall {
  private readonly logger = new Logger(HandOffCall.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  async execute(request: VoiceHandoffRequest, partnerId: string | null): Promise<VoiceHandoffReply> {
    if (!isUuid(request.agentId)) {
      throw AppError.validation([{ field: 'agentId', message: 'a handoff names the next agent' }]);
    }
    const reason = typeof request.reason === 'string' ? request.reason.slice(0, REASON_MAX) : '';
    const call = await findVoiceCall(this.dataSource, request.callId, partnerId);
    const holding = call.currentAgentSettings ?? call.agentSettings;
    if (!(holding.handoffs ?? []).some((h) => h.agentId === request.agentId)) {
      this.logger.warn(
        `call ${call.id}: refused a handoff to ${request.agentId}, not one of its agent's handoffs`,
      );
      throw new AppError(ErrorCode.FORBIDDEN, "The call's agent does not hand off to that agent");
    }
    // Checked again under the call's lock below; here so a call that cannot be handed off asks nobody.
    this.assertCanHandOff(
      call,
      await this.dataSource.getRepository(CallSession).findOneByOrFail({ callId: call.id }),
    );
    // The next agent as it is now (another account's, or a deleted one, is 404 from the agents service).
    const next = await this.rpc.request(Subjects.agents.agentForCall, call.partnerId, {
      id: request.agentId,
    });
    const agent = next.snapshot;
    await this.dataSource.transaction(async (em) => {
      const locked = await em.findOneOrFail(Call, {
        where: { id: call.id },
        lock: { mode: 'pessimistic_write' },
      });
      const session = await em.findOneByOrFail(CallSession, { callId: call.id });
      this.assertCanHandOff(locked, session);
      const segments = session.segments.length ? [...session.segments] : [firstSegment(locked)];
      const now = new Date().toISOString();
      segments[segments.length - 1] = {
        ...segments[segments.length - 1],
        ended_at: now,
        handoff_reason: reason,
      };
      segments.push({
        agent_id: next.id,
        agent_name: next.name,
        started_at: now,
        ended_at: null,
        handoff_reason: null,
      });
      await em.query(`UPDATE ${tableOf(em, Call)} SET current_agent_settings = $2::jsonb WHERE id = $1`, [
        call.id,
        JSON.stringify(agent),
      ]);
      await em.query(`UPDATE ${tableOf(em, CallSession)} SET segments = $2::jsonb WHERE call_id = $1`, [
        call.id,
        JSON.stringify(segments),
      ]);
    });
    return { agentId: next.id, agentName: next.name, agent };
  }

  /** A live call, handed off fewer than HANDOFF_LIMITS.perCall times (a loop between agents ends there). */
  private assertCanHandOff(call: Call, session: CallSession): void {
    if (isTerminalStatus(call.status)) {
      throw new AppError(ErrorCode.INVALID_STATE, 'The call has ended; it is not handed off');
    }
    // Segments are one more than the handoffs made.
    if (session.segments.length > HANDOFF_LIMITS.perCall) {
      throw new AppError(
        ErrorCode.LIMIT_REACHED,
        `The call was handed off ${HANDOFF_LIMITS.perCall} times; its agent keeps it`,
      );
    }
  }
}

/** The agent the call started with, from its answer (or creation) until the first handoff. */
function firstSegment(call: Call): CallSegment {
  return {
    agent_id: call.agentId,
    agent_name: call.agentName,
    started_at: (call.startedAt ?? call.createdAt).toISOString(),
    ended_at: null,
    handoff_reason: null,
  };
}
