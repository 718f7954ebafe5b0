import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { InboundRouteDecisionDto, SandboxInboundCallDto } from '@vap/api';
import { CallbackUrls } from '../carriers/callback-urls';
import { SandboxCallRunner } from '../carriers/sandbox/sandbox-call-runner';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { ReplicaLiveness } from '../lifecycle/replica-liveness.service';
import { Call } from '../calls/entities/call.entity';
import { tableOf } from '@vap/persistence';
import { InboundCallOpener } from '../telephony/inbound-routing/inbound-call-opener.service';
import { InboundRouterService } from '../telephony/inbound-routing/inbound-router.service';

/**
 * A simulated inbound call, so partners can test their decision URL without a carrier: it is routed
 * exactly like a carrier's inbound call (same resolution, request, signature, fallbacks and record). A
 * decision that answers with an agent opens the call on the partner's sandbox line, and the sandbox
 * phone calls in over the media stream like an outbound sandbox call's callee.
 */
@Injectable()
export class SandboxInboundService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly router: InboundRouterService,
    private readonly opener: InboundCallOpener,
    private readonly lines: DefaultLineService,
    private readonly runner: SandboxCallRunner,
    private readonly urls: CallbackUrls,
    private readonly liveness: ReplicaLiveness,
  ) {}

  async simulate(partnerId: string, input: SandboxInboundCallDto): Promise<InboundRouteDecisionDto> {
    const providerCallId = `sbx-in-${randomUUID()}`;
    const decision = await this.router.route({
      partnerId,
      provider: 'sandbox',
      providerCallId,
      fromNumber: input.from_number,
      toNumber: input.to_number,
    });
    if (decision.action !== 'ANSWER_WITH_AI' && decision.action !== 'SELECT_AGENT') return decision;
    await this.lines.ensureSandbox(partnerId);
    const connection = await this.dataSource
      .getRepository(Connection)
      .findOneOrFail({ where: { partnerId, provider: 'sandbox' } });
    const opened = await this.opener.open(decision, connection);
    // The phone runs here, so this replica owns the call: if it dies, another one ends the call.
    await this.dataSource.query(`UPDATE ${tableOf(this.dataSource, Call)} SET owner_id = $2 WHERE id = $1`, [
      opened.callId,
      this.liveness.id,
    ]);
    this.runner.startInbound({
      callId: opened.callId,
      providerCallId,
      fromNumber: input.from_number,
      callbackUrl: this.urls.forCall('sandbox', opened.callId),
    });
    return { ...decision, call_id: opened.callId, session_id: opened.sessionId };
  }
}
