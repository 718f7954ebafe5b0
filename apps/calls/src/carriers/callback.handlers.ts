import { Controller } from '@nestjs/common';
import { CarrierCallbackIngest, Subjects } from '@vap/messages';
import { Command, Data } from '@vap/messaging';
import { CallbackIngestService } from './callback-ingest.service';

/** Carrier callbacks forwarded by the gateway's public callback route. */
@Controller()
export class CallbackHandlers {
  constructor(private readonly ingest: CallbackIngestService) {}

  @Command(Subjects.calls.callbackIngest)
  handle(@Data() ingest: CarrierCallbackIngest) {
    return this.ingest.ingest(ingest);
  }
}
