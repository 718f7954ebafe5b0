import { Module } from '@nestjs/common';
import { ProjectsHandlers } from './projects.handlers';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsHandlers],
  providers: [ProjectsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
