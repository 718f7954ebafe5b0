import { Module } from '@nestjs/common';
import { AgentFlagService } from './agent-flag.service';

@Module({
  providers: [AgentFlagService],
  exports: [AgentFlagService],
})
export class AgentFlagModule {}
