import { Module } from '@nestjs/common';
import { AgentKnowledgeController } from './agent-knowledge.controller';

@Module({ controllers: [AgentKnowledgeController] })
export class KnowledgeModule {}
