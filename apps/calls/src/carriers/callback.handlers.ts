import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CarrierCallbackIngest, CarrierCallbackReply, RpcRequest, Subjects } from '@vap/contracts';
import { CallbackIngestService } from './callback-ingest.service';

/** Carrier callbacks forwarded by the gateway's public callback route. */
@Controller()
export class CallbackHandlers {
  constructor(private readonly ingest: CallbackIngestService) {}

  @MessagePattern(Subjects.calls.callbackIngest)
  handle(@Payload() req: RpcRequest<CarrierCallbackIngest>): Promise<CarrierCallbackReply> {
    return this.ingest.ingest(req.data);
  }
}
