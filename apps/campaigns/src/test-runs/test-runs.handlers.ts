import { Controller } from '@nestjs/common';
import { CreateTestRunDto, ListTestRunsQueryDto } from '@vap/api';
import { ByIdRequest, PartnerContext, Subjects } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { TestRunsService } from './test-runs.service';

/** NATS commands of test runs (queue group: campaigns). */
@Controller()
export class TestRunsHandlers {
  constructor(private readonly runs: TestRunsService) {}

  @Command(Subjects.campaigns.testRunCreate)
  create(@Data() data: CreateTestRunDto, @Caller() partner: PartnerContext) {
    return this.runs.create(partner, data);
  }

  @Command(Subjects.campaigns.testRunList)
  list(@Data() query: ListTestRunsQueryDto, @PartnerId() partnerId: string) {
    return this.runs.list(partnerId, query);
  }

  @Command(Subjects.campaigns.testRunGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.runs.get(partnerId, id);
  }
}
