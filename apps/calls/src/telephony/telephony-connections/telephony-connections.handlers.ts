import { Controller } from '@nestjs/common';
import { UpdateTelephonyConnectionDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { TelephonyConnectionsService } from './telephony-connections.service';

/** NATS commands of the /telephony-connections resource (queue group: calls). */
@Controller()
export class TelephonyConnectionsHandlers {
  constructor(private readonly connections: TelephonyConnectionsService) {}

  @Command(Subjects.calls.telephonyConnectionList)
  list(@PartnerId() partnerId: string) {
    return this.connections.list(partnerId);
  }

  @Command(Subjects.calls.telephonyConnectionGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.connections.get(partnerId, id);
  }

  @Command(Subjects.calls.telephonyConnectionUpdate)
  update(
    @Data() { id, changes }: UpdateRequest<UpdateTelephonyConnectionDto>,
    @PartnerId() partnerId: string,
  ) {
    return this.connections.update(partnerId, id, changes);
  }

  @Command(Subjects.calls.telephonyConnectionDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.connections.remove(partnerId, id);
  }

  @Command(Subjects.calls.telephonyConnectionTest)
  test(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.connections.test(partnerId, id);
  }
}
