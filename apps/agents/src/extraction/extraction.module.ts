import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { EffectiveSchemaService } from './effective-schema.service';
import { ExtractionHandlers } from './extraction.handlers';
import { ExtractionSetsService } from './extraction-sets.service';
import { FromAgentService } from './from-agent.service';

@Module({
  imports: [AgentsModule],
  controllers: [ExtractionHandlers],
  providers: [ExtractionSetsService, FromAgentService, EffectiveSchemaService],
})
export class ExtractionModule {}
