import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { LifecycleHooksModule } from '../lifecycle-hooks/lifecycle-hooks.module';
import { RecordingModule } from '../recording/recording.module';
import { CarrierRecordingCopier } from './carrier-recording-copier.service';
import { AnalysisRunner } from './analysis-runner.service';
import { ExtractionRunner } from './extraction-runner.service';
import { llmProvider } from './llm/llm.provider';
import { PostCallModels } from './llm/post-call-models';
import { PostCallProcessor } from './post-call-processor.service';
import { PostCallWorker } from './post-call-worker.service';

/** After a call ends: its recording kept, its data extracted and analysed, session.completed reported (a work queue). */
@Module({
  imports: [CarriersModule, RecordingModule, LifecycleHooksModule],
  providers: [
    PostCallWorker,
    PostCallProcessor,
    CarrierRecordingCopier,
    ExtractionRunner,
    AnalysisRunner,
    llmProvider,
    PostCallModels,
  ],
})
export class PostCallModule {}
