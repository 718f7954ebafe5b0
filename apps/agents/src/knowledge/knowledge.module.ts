import { Global, Module } from '@nestjs/common';
import { IntegrationLogsModule } from '../integration-logs/integration-logs.module';
import { AgentDeletedConsumer } from './agent-deleted.consumer';
import { AgentDocumentsService } from './agent-documents.service';
import { DocumentTextService } from './indexing/document-text.service';
import { IndexLinkJob } from './indexing/index-link.job';
import { PurgeDocumentJob } from './indexing/purge-document.job';
import { PurgeLinkJob } from './indexing/purge-link.job';
import { WebPageFetcher } from './indexing/web-page-fetcher';
import { KB_JOB_HANDLERS, KbJobHandler } from './jobs/kb-job';
import { KbJobsRepository } from './jobs/kb-jobs.repository';
import { KbWorkerService } from './jobs/kb-worker.service';
import { KnowledgeHandlers } from './knowledge.handlers';
import { KnowledgeSearchService } from './search/knowledge-search.service';

/**
 * The knowledge base: agent-document links, the indexing job queue and its worker, and search. Global so
 * that documents can queue cleanup jobs and the agent record can list linked documents.
 */
@Global()
@Module({
  imports: [IntegrationLogsModule],
  controllers: [KnowledgeHandlers],
  providers: [
    KbJobsRepository,
    KbWorkerService,
    WebPageFetcher,
    DocumentTextService,
    IndexLinkJob,
    PurgeLinkJob,
    PurgeDocumentJob,
    {
      provide: KB_JOB_HANDLERS,
      useFactory: (...handlers: KbJobHandler[]) => handlers,
      inject: [IndexLinkJob, PurgeLinkJob, PurgeDocumentJob],
    },
    AgentDocumentsService,
    KnowledgeSearchService,
    AgentDeletedConsumer,
  ],
  exports: [KbJobsRepository, AgentDocumentsService],
})
export class KnowledgeModule {}
