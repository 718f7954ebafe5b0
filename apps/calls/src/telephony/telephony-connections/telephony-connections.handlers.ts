import { Controller } from '@nestjs/common';
import { UpdateTelephonyConnectionDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { DeleteTelephonyConnection } from './usecases/delete-telephony-connection/delete-telephony-connection.usecase';
import { GetTelephonyConnection } from './usecases/get-telephony-connection/get-telephony-connection.usecase';
import { ListTelephonyConnections } from './usecases/list-telephony-connections/list-telephony-connections.usecase';
import { TestTelephonyConnection } from './usecases/test-telephony-connection/test-telephony-connection.usecase';
import { UpdateTelephonyConnection } from './usecases/update-telephony-connection/update-telephony-connection.usecase';

/** NATS commands of the /telephony-connections resource (queue group: calls). */
@Controller()
export class TelephonyConnectionsHandlers {
  constructor(
    private readonly listConnections: ListTelephonyConnections,
    private readonly getConnection: GetTelephonyConnection,
    private readonly updateConnection: UpdateTelephonyConnection,
    private readonly deleteConnection: DeleteTelephonyConnection,
    private readonly testConnection: TestTelephonyConnection,
  ) {}

  @Command(Subjects.calls.telephonyConnectionList)
  list(@PartnerId() partnerId: string) {
    return this.listConnections.execute(partnerId);
  }

  @Command(Subjects.calls.telephonyConnectionGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.getConnection.execute(partnerId, id);
  }

  @Command(Subjects.calls.telephonyConnectionUpdate)
  update(
    @Data() { id, changes }: UpdateRequest<UpdateTelephonyConnectionDto>,
    @PartnerId() partnerId: string,
  ) {
    return this.updateConnection.execute(partnerId, id, changes);
  }

  @Command(Subjects.calls.telephonyConnectionDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deleteConnection.execute(partnerId, id);
  }

  @Command(Subjects.calls.telephonyConnectionTest)
  test(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.testConnection.execute(partnerId, id);
  }
}
