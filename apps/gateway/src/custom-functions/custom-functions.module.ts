import { Module } from '@nestjs/common';
import { AgentCustomFunctionsController } from './agent-custom-functions.controller';
import { CustomFunctionsController } from './custom-functions.controller';

@Module({ controllers: [CustomFunctionsController, AgentCustomFunctionsController] })
export class CustomFunctionsModule {}
