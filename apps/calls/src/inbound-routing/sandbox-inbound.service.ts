import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InboundRouteDecisionDto, SandboxInboundCallDto } from '@vap/contracts';
import { InboundRouterService } from './inbound-router.service';

/**
 * A simulated inbound call, so partners can test their decision URL without a carrier: it is routed
 * exactly like a carrier's inbound call (same resolution, request, signature, fallbacks and record).
 */
@Injectable()
export class SandboxInboundService {
  constructor(private readonly router: InboundRouterService) {}

  async simulate(partnerId: string, input: SandboxInboundCallDto): Promise<InboundRouteDecisionDto> {
    return this.router.route({
      partnerId,
      provider: 'sandbox',
      providerCallId: `sbx-in-${randomUUID()}`,
      fromNumber: input.from_number,
      toNumber: input.to_number,
    });
  }
}
