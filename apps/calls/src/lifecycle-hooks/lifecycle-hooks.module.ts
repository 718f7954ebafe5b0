import { Module } from '@nestjs/common';
import { ProgressModule } from '../progress/progress.module';
import { LifecycleHooksAgentDeletedConsumer } from './agent-deleted.consumer';
import { HookClient } from './hook-client';
import { LifecycleHooksHandlers } from './lifecycle-hooks.handlers';
import { LifecycleHooksService } from './lifecycle-hooks.service';
import { PostCallHookWorker } from './post-call-hook.worker';
import { PreCallHookRunner } from './pre-call-hook.runner';

/**
 * The partner's lifecycle hooks: their settings, the pre-call request (before a call is dialled or
 * answered) and the post-call request (after its session completed), each logged for the integration log;
 * a deleted agent's hooks are deleted with it.
 */
@Module({
  imports: [ProgressModule],
  controllers: [LifecycleHooksHandlers],
  providers: [
    LifecycleHooksService,
    HookClient,
    PreCallHookRunner,
    PostCallHookWorker,
    LifecycleHooksAgentDeletedConsumer,
  ],
  exports: [LifecycleHooksService, PreCallHookRunner],
})
export class LifecycleHooksModule {}
