import { Module } from '@nestjs/common';
import { TestRunsController, TestScenariosController } from './test-runs.controller';

@Module({ controllers: [TestScenariosController, TestRunsController] })
export class TestRunsModule {}
