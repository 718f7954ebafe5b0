import { All, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { CALLBACKS_PATH } from '../callbacks/callbacks.route';
import { carrierIngestOf, sendCarrierReply } from '../callbacks/carrier-ingest';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';

/**
 * The carriers' message webhooks, outside the partner API like the call callbacks: delivery status callbacks
 * (`/callbacks/messages/{provider}/{messageId}/status`, the URL the platform hands the carrier with each message)
 * and inbound SMS (`/callbacks/inbound/{provider}/{connectionId}/sms`, the message URL a partner sets on their
 * carrier numbers). The request goes to the calls service as received; it checks the carrier's signature with
 * the connection's credentials and answers 403 when it fails.
 */
@Public()
@ApiExcludeController()
@RateLimitBucket('callbacks')
@Controller(CALLBACKS_PATH)
export class MessageWebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @All('messages/:provider/:messageId/status')
  async status(
    @Param('provider') provider: string,
    @Param('messageId') messageId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ingest = carrierIngestOf(req, { provider, callId: messageId, event: 'message_status' });
    sendCarrierReply(res, await this.rpc.request(Subjects.calls.messageCallbackIngest, null, ingest));
  }

  @All('inbound/:provider/:connectionId/sms')
  async inbound(
    @Param('provider') provider: string,
    @Param('connectionId') connectionId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ingest = carrierIngestOf(req, { provider, callId: connectionId, event: 'inbound_sms' });
    sendCarrierReply(res, await this.rpc.request(Subjects.calls.inboundMessageIngest, null, ingest));
  }
}
