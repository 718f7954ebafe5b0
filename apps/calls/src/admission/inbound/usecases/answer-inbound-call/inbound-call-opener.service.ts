import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InboundRouteDecisionDto } from '@vap/api';
import { AgentForCall, AppError, CallProvider, DomainEvents, Subjects } from '@vap/messages';
import { OutboxService, RpcClient } from '@vap/messaging';
import { isUniqueViolation, tableOf } from '@vap/persistence';
import { Call, newCall } from '../../../../calls/entities/call.entity';
import { CallSession, newSession } from '../../../../calls/entities/call-session.entity';
import {
  accountConcurrency,
  effectiveConcurrencyLimit,
  readActiveCalls,
} from '../../../../partners/partner-lock';
import { Connection } from '../../../../telephony/connections/entities/connection.entity';
import { PhoneNumber } from '../../../../telephony/phone-numbers/entities/phone-number.entity';
import { PreCallHookRunner } from '../../../../lifecycle-hooks/pre-call-hook.runner';
import { PartnerStanding } from '../../../../partners/partner-standing';
import { CallProgressService } from '../../../../progress/call-progress.service';
import { statusUpdatedData } from '../../../../progress/status-event';

export interface OpenedInboundCall {
  callId: string;
  sessionId: string;
  /** The pre-call hook refused it: the call has ended (disposition blocked) and the carrier is told to reject. */
  blocked: boolean;
}

/**
 * Turns an inbound call the router decided to answer with AI into a phone call of the platform: a call row
 * (direction inbound, the carrier's id for it) with its session, recorded like an outbound start, then,
 * unless the pre-call hook refuses it, answered through call progress. The carrier's later callbacks for the same call id move it on (see
 * AnswerInboundCall), so it ends, is processed and reported like any call.
 */
@Injectable()
export class InboundCallOpener {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
    private readonly outbox: OutboxService,
    private readonly progress: CallProgressService,
    private readonly standing: PartnerStanding,
    private readonly preCall: PreCallHookRunner,
  ) {}

  async open(decision: InboundRouteDecisionDto, connection: Connection): Promise<OpenedInboundCall> {
    const partnerId = connection.partnerId;
    // The router names an agent for every decision that answers with one.
    if (!decision.agent_id)
      throw AppError.internal(`inbound decision ${decision.id} answers without an agent`);
    const agent = await this.rpc.request(Subjects.agents.agentForCall, partnerId, { id: decision.agent_id });
    let call: Call;
    let opened = false;
    try {
      call = await this.insert(decision, connection, agent);
      opened = true;
    } catch (err) {
      // The carrier retried its webhook while the first copy was opening the call: that call stands.
      if (!isUniqueViolation(err)) throw err;
      // Only if it is this partner's: another account's call with the same carrier id (a webhook the
      // account signed itself with a forged id) is neither answered nor revealed.
      const existing = await this.dataSource.getRepository(Call).findOne({
        where: {
          partnerId,
          provider: connection.provider as CallProvider,
          providerCallId: decision.provider_call_id,
        },
      });
      if (!existing) throw AppError.conflict('The carrier call id belongs to another call');
      call = existing;
    }
    // The pre-call hook runs once, for the copy of the webhook that opened the call, before it is answered.
    const hooked = opened ? await this.preCall.run(call, null) : { blocked: call.disposition === 'blocked' };
    if (hooked.blocked) return { callId: call.id, sessionId: call.sessionId, blocked: true };
    await this.progress.apply(
      { callId: call.id },
      {
        provider: call.provider,
        kind: 'status',
        dedupeKey: 'inbound-answer',
        providerStatus: 'in-progress',
        providerEvent: 'inbound-answer',
        sequence: null,
        ended: false,
        occurredAt: new Date(),
      },
    );
    return { callId: call.id, sessionId: call.sessionId, blocked: false };
  }

  private insert(
    decision: InboundRouteDecisionDto,
    connection: Connection,
    agent: AgentForCall,
  ): Promise<Call> {
    return this.dataSource.transaction(async (em) => {
      const number = decision.phone_number_id
        ? await em.findOne(PhoneNumber, { where: { id: decision.phone_number_id } })
        : null;
      const known = await this.standing.concurrencyLimit(connection.partnerId, em);
      const call = em.create(
        Call,
        newCall(agent, {
          partnerId: connection.partnerId,
          direction: 'inbound',
          fromNumber: decision.from_number,
          toNumber: decision.to_number,
          phoneNumberId: number?.id ?? null,
          connectionId: connection.id,
          provider: connection.provider as CallProvider,
          providerCallId: decision.provider_call_id,
          clientReferenceId: null,
          variables: {},
          // The carrier already rang: an inbound call is not admitted against the account's limit, only
          // reported with it (account_concurrency), as start-call applies it. Null while it is not known.
          concurrencyLimit: known === null ? null : effectiveConcurrencyLimit(known),
          providerStatus: 'ringing',
          providerEvent: 'inbound',
        }),
      );
      await em.save(call);
      // The insert counted the call (and holds the partner's count until commit): this is its own count.
      const active = await readActiveCalls(em, connection.partnerId);
      await em.insert(CallSession, newSession(call));
      await em.query(
        `UPDATE ${tableOf(em, 'inbound_route_decisions')} SET call_id = $2, session_id = $3 WHERE id = $1`,
        [decision.id, call.id, call.sessionId],
      );
      await this.outbox.record(
        em,
        DomainEvents.callStatusUpdated,
        call.partnerId,
        statusUpdatedData(call, null, accountConcurrency(call.concurrencyLimit, active), call.createdAt),
      );
      return call;
    });
  }
}
