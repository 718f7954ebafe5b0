import { Module } from '@nestjs/common';
import { ConsoleModule } from '../console/console.module';
import { LiveViewEvents } from './live-view-events';
import { LiveViewSlots } from './live-view-slots';
import { LiveViewsController } from './live-views.controller';

/** The console's live views of calls and browser sessions (server-sent events under /console/api/live). */
@Module({
  imports: [ConsoleModule],
  controllers: [LiveViewsController],
  providers: [LiveViewEvents, LiveViewSlots],
})
export class LiveViewsModule {}
