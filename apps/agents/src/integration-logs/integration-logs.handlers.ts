import { Controller } from '@nestjs/common';
import { ListIntegrationLogsQueryDto } from '@vap/api';
import { ByIdRequest, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { IntegrationLogsService } from './integration-logs.service';

/** NATS commands of the integration log (queue group: agents). */
@Controller()
export class IntegrationLogsHandlers {
  constructor(private readonly logs: IntegrationLogsService) {}

  @Command(Subjects.agents.integrationLogList)
  list(@Data() query: ListIntegrationLogsQueryDto, @PartnerId() partnerId: string) {
    return this.logs.list(partnerId, query);
  }

  @Command(Subjects.agents.integrationLogGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.logs.get(partnerId, id);
  }
}
