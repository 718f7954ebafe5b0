import { All, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { CALLBACKS_PATH } from '../callbacks/callbacks.route';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';
import { carrierIngestOf, sendCarrierReply } from '../callbacks/carrier-ingest';

/** The partner's decision URL may take up to 10 s; the carrier waits for the routed answer. */
const INBOUND_RPC_TIMEOUT_MS = 15_000;

/**
 * Inbound-call webhooks of carrier numbers: `/callbacks/inbound/{provider}/{connectionId}/voice`, the URL a
 * partner sets on their carrier numbers (GET /config/telephony shows it). Authenticated by the carrier's
 * signature, checked by the calls service over the raw body; the answer is the carrier markup that carries
 * out the routing decision. Not part of the partner API, so it is left out of the OpenAPI document.
 */
@Public()
@ApiExcludeController()
@RateLimitBucket('callbacks')
@Controller(`${CALLBACKS_PATH}/inbound`)
export class InboundCallWebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @All(':provider/:connectionId/voice')
  async receive(
    @Param('provider') provider: string,
    @Param('connectionId') connectionId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ingest = carrierIngestOf(req, {
      provider,
      callId: connectionId,
      event: 'inbound',
    });
    const reply = await this.rpc.request(Subjects.calls.inboundCallbackIngest, null, ingest, {
      timeoutMs: INBOUND_RPC_TIMEOUT_MS,
    });
    sendCarrierReply(res, reply);
  }
}
