import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { VoicesModule } from '../voices/voices.module';
import { AgentRecordsService } from './agent-records.service';
import { AgentsHandlers } from './agents.handlers';
import { AgentsService } from './agents.service';

@Module({
  imports: [ProjectsModule, VoicesModule],
  controllers: [AgentsHandlers],
  providers: [AgentsService, AgentRecordsService],
  exports: [AgentsService, AgentRecordsService],
})
export class AgentsModule {}
