import { Controller } from '@nestjs/common';
import { CreateTestScenarioDto, ListTestScenariosQueryDto, UpdateTestScenarioDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { TestScenariosService } from './test-scenarios.service';

/** NATS commands of test scenarios (queue group: campaigns). */
@Controller()
export class TestScenariosHandlers {
  constructor(private readonly scenarios: TestScenariosService) {}

  @Command(Subjects.campaigns.testScenarioCreate)
  create(@Data() data: CreateTestScenarioDto, @PartnerId() partnerId: string) {
    return this.scenarios.create(partnerId, data);
  }

  @Command(Subjects.campaigns.testScenarioList)
  list(@Data() query: ListTestScenariosQueryDto, @PartnerId() partnerId: string) {
    return this.scenarios.list(partnerId, query);
  }

  @Command(Subjects.campaigns.testScenarioGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.scenarios.get(partnerId, id);
  }

  @Command(Subjects.campaigns.testScenarioUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateTestScenarioDto>, @PartnerId() partnerId: string) {
    return this.scenarios.update(partnerId, id, changes);
  }

  @Command(Subjects.campaigns.testScenarioDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.scenarios.delete(partnerId, id);
  }
}
