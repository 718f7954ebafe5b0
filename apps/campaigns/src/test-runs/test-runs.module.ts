import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { PartnersModule } from '../partners/partners.module';
import { TestScenariosModule } from '../test-scenarios/test-scenarios.module';
import { TestRunner } from './test-runner.service';
import { TestRunsHandlers } from './test-runs.handlers';
import { TestRunsRepository } from './test-runs.repository';
import { TestRunsService } from './test-runs.service';

@Module({
  imports: [CampaignsModule, PartnersModule, TestScenariosModule],
  controllers: [TestRunsHandlers],
  providers: [TestRunsRepository, TestRunsService, TestRunner],
})
export class TestRunsModule {}
