import { Module } from '@nestjs/common';
import { DictionariesModule } from '../dictionaries/dictionaries.module';
import { ProjectsModule } from '../projects/projects.module';
import { ProviderCredentialsModule } from '../provider-credentials/provider-credentials.module';
import { VoicesModule } from '../voices/voices.module';
import { AgentRecordsService } from './agent-records.service';
import { AgentsHandlers } from './agents.handlers';
import { AgentsService } from './agents.service';
import { WebhookFlagConsumer } from './webhook-flag.consumer';

@Module({
  imports: [ProjectsModule, VoicesModule, DictionariesModule, ProviderCredentialsModule],
  controllers: [AgentsHandlers],
  providers: [AgentsService, AgentRecordsService, WebhookFlagConsumer],
  exports: [AgentsService, AgentRecordsService],
})
export class AgentsModule {}
