import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { VoicesModule } from '../voices/voices.module';
import { AgentRecordsService } from './agent-records.service';
import { AgentsHandlers } from './agents.handlers';
import { AgentsService } from './agents.service';
import { WebhookFlagConsumer } from './webhook-flag.consumer';

@Module({
  imports: [ProjectsModule, VoicesModule],
  controllers: [AgentsHandlers],
  providers: [AgentsService, AgentRecordsService, WebhookFlagConsumer],
  exports: [AgentsService, AgentRecordsService],
})
export class AgentsModule {}
