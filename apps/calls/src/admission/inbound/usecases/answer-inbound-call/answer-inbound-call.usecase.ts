import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, CallProvider, CarrierCallbackIngest, CarrierCallbackReply, isUuid } from '@vap/messages';
import { Call, carrierConnectionOf } from '../../../../calls/entities/call.entity';
import { CallbackRequest, callbackRequestOf } from '../../../../carriers/carrier-adapter';
import { CarrierRegistry } from '../../../../carriers/carrier-registry';
import { Connection } from '../../../../telephony/connections/entities/connection.entity';
import { CarrierReconciler } from '../../../../carriers/reconciliation/carrier-reconciler.service';
import { toDecisionDto } from '../../../../telephony/inbound-routing/decision-dto';
import { InboundRouteDecision } from '../../../../telephony/inbound-routing/entities/inbound-route-decision.entity';
import { isInboundCallParser } from '../../../../carriers/inbound-call-parser';
import { InboundCallOpener } from './inbound-call-opener.service';
import { InboundRouterService } from '../../../../telephony/inbound-routing/inbound-router.service';

const EMPTY_REPLY: CarrierCallbackReply = { status: 200, contentType: 'text/plain', body: '' };

/**
 * Webhooks of a connection's numbers (`/callbacks/inbound/{provider}/{connectionId}/voice`). The adapter
 * verifies the signature with the connection's credentials first (403, nothing stored). A call id the
 * platform does not know, Direction inbound, is a new inbound call: it is routed, an AI answer opens a phone
 * call whose audio streams to the voice service, and the carrier gets the markup that carries out the
 * decision. Later callbacks of that call (status
 * callbacks pointed at the same URL) move it on through call progress like any call's.
 */
@Injectable()
export class AnswerInboundCall {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly router: InboundRouterService,
    private readonly opener: InboundCallOpener,
    private readonly reconciler: CarrierReconciler,
  ) {}

  async execute(input: CarrierCallbackIngest): Promise<CarrierCallbackReply> {
    const adapter = this.carriers.get(input.provider);
    const connection = isUuid(input.callId)
      ? await this.dataSource.getRepository(Connection).findOne({ where: { id: input.callId } })
      : null;
    if (!connection || connection.provider !== input.provider || !isInboundCallParser(adapter)) {
      throw AppError.notFound('Connection');
    }
    const request = callbackRequestOf(input);
    const announced = await adapter.parseInboundCall(request, {
      id: connection.id,
      partnerId: connection.partnerId,
      provider: adapter.provider,
    });
    if (announced.direction !== 'inbound') {
      throw AppError.validation([{ field: 'Direction', message: 'this URL takes inbound calls only' }]);
    }
    const known = await this.dataSource.getRepository(Call).findOne({
      where: {
        partnerId: connection.partnerId,
        provider: connection.provider as CallProvider,
        providerCallId: announced.providerCallId,
      },
    });
    if (known) return this.followUp(request, known);

    const decision = await this.router.route({
      partnerId: connection.partnerId,
      provider: input.provider,
      providerCallId: announced.providerCallId,
      fromNumber: announced.fromNumber,
      toNumber: announced.toNumber,
    });
    if (decision.action !== 'ANSWER_WITH_AI' && decision.action !== 'SELECT_AGENT') {
      return adapter.inboundReply(decision);
    }
    const opened = await this.opener.open(decision, connection);
    if (opened.blocked) return adapter.inboundReply({ ...decision, action: 'REJECT' });
    return adapter.inboundReply({ ...decision, call_id: opened.callId, session_id: opened.sessionId });
  }

  /** A later callback of an inbound call the platform answered: progress, never a second routing. */
  private async followUp(request: CallbackRequest, call: Call): Promise<CarrierCallbackReply> {
    const adapter = this.carriers.get(call.provider);
    const parsed = await adapter.parseCallback(request, {
      id: call.id,
      partnerId: call.partnerId,
      connectionId: carrierConnectionOf(call),
      providerCallId: call.providerCallId,
    });
    for (const event of parsed.events) await this.reconciler.apply(call, event);
    // A repeated voice webhook must get the same markup again (a fresh stream token: the carrier uses the
    // answer it got last); carriers ignore the body of status callbacks.
    const decision = await this.dataSource
      .getRepository(InboundRouteDecision)
      .findOne({ where: { partnerId: call.partnerId, callId: call.id } });
    if (parsed.reply || !decision || !isInboundCallParser(adapter)) return parsed.reply ?? EMPTY_REPLY;
    // A call the pre-call hook refused is rejected again, not answered.
    if (call.disposition === 'blocked')
      return adapter.inboundReply({ ...toDecisionDto(decision), action: 'REJECT' });
    return adapter.inboundReply(toDecisionDto(decision));
  }
}
