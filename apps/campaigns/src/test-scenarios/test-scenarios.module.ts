import { Module } from '@nestjs/common';
import { TestScenariosHandlers } from './test-scenarios.handlers';
import { TestScenariosService } from './test-scenarios.service';

@Module({
  controllers: [TestScenariosHandlers],
  providers: [TestScenariosService],
  exports: [TestScenariosService],
})
export class TestScenariosModule {}
