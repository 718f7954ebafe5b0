import { Module } from '@nestjs/common';
import { AgentCatalogController } from './agent-catalog.controller';
import { AgentExtractionSetsController } from './agent-extraction-sets.controller';
import { AgentsController } from './agents.controller';
import { AgentToolsController } from './agent-tools.controller';

@Module({
  // The catalog's static paths (/agent/voices) must be registered before /agent/:id.
  controllers: [
    AgentCatalogController,
    AgentsController,
    AgentExtractionSetsController,
    AgentToolsController,
  ],
})
export class AgentsModule {}
