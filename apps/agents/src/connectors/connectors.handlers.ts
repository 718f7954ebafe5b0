import { Controller } from '@nestjs/common';
import {
  ConnectionCreateRequest,
  ConnectionDeleteRequest,
  ConnectionListRequest,
  CreateConnectorDto,
  ListConnectorsQueryDto,
  UpdateConnectorDto,
} from '@vap/api';
import {
  ByIdRequest,
  ConnectCallbackRequest,
  ConnectOpenRequest,
  ConnectSubmitKeyRequest,
  Subjects,
  UpdateRequest,
} from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ConnectFlowService } from './connect-flow.service';
import { ConnectionsService } from './connections.service';
import { ConnectorsService } from './connectors.service';

/** NATS commands of connectors, customers' connections and the hosted connect pages (queue group: agents). */
@Controller()
export class ConnectorsHandlers {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly connections: ConnectionsService,
    private readonly flow: ConnectFlowService,
  ) {}

  @Command(Subjects.agents.connectorCreate)
  create(@Data() data: CreateConnectorDto, @PartnerId() partnerId: string) {
    return this.connectors.create(partnerId, data);
  }

  @Command(Subjects.agents.connectorList)
  list(@Data() query: ListConnectorsQueryDto, @PartnerId() partnerId: string) {
    return this.connectors.list(partnerId, query);
  }

  @Command(Subjects.agents.connectorGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.connectors.get(partnerId, id);
  }

  @Command(Subjects.agents.connectorUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateConnectorDto>, @PartnerId() partnerId: string) {
    return this.connectors.update(partnerId, id, changes);
  }

  @Command(Subjects.agents.connectorDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.connectors.remove(partnerId, id);
  }

  @Command(Subjects.agents.connectionCreate)
  createConnection(@Data() data: ConnectionCreateRequest, @PartnerId() partnerId: string) {
    return this.connections.createLink(partnerId, data);
  }

  @Command(Subjects.agents.connectionList)
  listConnections(@Data() data: ConnectionListRequest, @PartnerId() partnerId: string) {
    return this.connections.list(partnerId, data);
  }

  @Command(Subjects.agents.connectionDelete)
  removeConnection(@Data() data: ConnectionDeleteRequest, @PartnerId() partnerId: string) {
    return this.connections.remove(partnerId, data);
  }

  /** The hosted pages: no partner, the link's token (or the callback's state) names the connection. */
  @Command(Subjects.agents.connectOpen)
  open(@Data() data: ConnectOpenRequest) {
    return this.flow.open(data);
  }

  @Command(Subjects.agents.connectSubmitKey)
  submitKey(@Data() data: ConnectSubmitKeyRequest) {
    return this.flow.submitKey(data);
  }

  @Command(Subjects.agents.connectCallback)
  callback(@Data() data: ConnectCallbackRequest) {
    return this.flow.callback(data);
  }
}
