import { All, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { Public } from '@vap/runtime';
import { CALLBACKS_PATH } from './callbacks.route';
import { RateLimitBucket } from '../rate-limit/rate-limit-bucket';
import { carrierIngestOf, sendCarrierReply } from './carrier-ingest';

/**
 * The public ingress of carrier status callbacks. The request goes to the calls service as received
 * (method, URL, headers, raw body); its carrier adapter verifies the signature and answers 403 when it
 * fails. Not part of the partner API, so it is left out of the OpenAPI document.
 */
@Public()
@ApiExcludeController()
@RateLimitBucket('callbacks')
@Controller(CALLBACKS_PATH)
export class CarrierCallbacksController {
  constructor(private readonly rpc: RpcClient) {}

  @All(':provider/:callId/:event')
  async receive(
    @Param('provider') provider: string,
    @Param('callId') callId: string,
    @Param('event') event: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ingest = carrierIngestOf(req, { provider, callId, event });
    const reply = await this.rpc.request(Subjects.calls.callbackIngest, null, ingest);
    sendCarrierReply(res, reply);
  }
}
