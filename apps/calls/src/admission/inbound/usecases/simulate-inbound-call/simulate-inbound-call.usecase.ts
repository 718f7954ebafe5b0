import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InboundRouteDecisionDto, SandboxInboundCallDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { CallbackUrls } from '../../../../carriers/callback-urls';
import { Connection } from '../../../../telephony/connections/entities/connection.entity';
import { DefaultLineService } from '../../../../telephony/connections/default-line.service';
import { SandboxLineCarrier } from '../../../../carriers/sandbox-line.carrier';
import { toDecisionDto } from '../../../../telephony/inbound-routing/decision-dto';
import { InboundRouteDecision } from '../../../../telephony/inbound-routing/entities/inbound-route-decision.entity';
import { InboundRouterService } from '../../../../telephony/inbound-routing/inbound-router.service';

/**
 * A simulated inbound call, so partners can test their decision URL without a carrier: the sandbox
 * carrier is asked to ring one of the partner's numbers, and its inbound webhook reaches the platform like
 * any carrier's (same signature check, resolution, request, fallbacks, record and answer markup). The
 * answer is the decision that webhook produced.
 */
@Injectable()
export class SimulateInboundCall {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
    private readonly carrier: SandboxLineCarrier,
    private readonly urls: CallbackUrls,
    private readonly router: InboundRouterService,
  ) {}

  async execute(partnerId: string, input: SandboxInboundCallDto): Promise<InboundRouteDecisionDto> {
    // The account's own number only (404 otherwise), before any carrier is asked to ring it.
    await this.router.numberFor(partnerId, input.to_number);
    await this.lines.ensureSandbox(partnerId);
    const connection = await this.dataSource
      .getRepository(Connection)
      .findOneOrFail({ where: { partnerId, provider: this.carrier.provider } });
    const sid = await this.carrier.startInbound({
      from: input.from_number,
      to: input.to_number,
      voiceUrl: `${this.urls.base}/callbacks/inbound/${connection.provider}/${connection.id}/voice`,
    });
    const decision = await this.dataSource
      .getRepository(InboundRouteDecision)
      .findOne({ where: { partnerId, providerCallId: sid } });
    if (!decision) throw AppError.downstream('The sandbox carrier did not deliver the inbound call');
    return toDecisionDto(decision);
  }
}
