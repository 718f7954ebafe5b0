import { Controller } from '@nestjs/common';
import { AgentDocumentLinkRequest, AgentDocumentUnlinkRequest } from '@vap/api';
import { KnowledgeSearchCommand, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { AgentDocumentsService } from './agent-documents.service';
import { KnowledgeSearchService } from './search/knowledge-search.service';

/** NATS commands of the knowledge base: links between agents and documents, and search. */
@Controller()
export class KnowledgeHandlers {
  constructor(
    private readonly links: AgentDocumentsService,
    private readonly searcher: KnowledgeSearchService,
  ) {}

  @Command(Subjects.agents.agentDocumentLink)
  link(@Data() { agentId, body }: AgentDocumentLinkRequest, @PartnerId() partnerId: string) {
    return this.links.link(partnerId, agentId, body);
  }

  @Command(Subjects.agents.agentDocumentUnlink)
  unlink(@Data() { agentId, documentId }: AgentDocumentUnlinkRequest, @PartnerId() partnerId: string) {
    return this.links.unlink(partnerId, agentId, documentId);
  }

  @Command(Subjects.agents.agentDocumentList)
  list(@Data() { agentId }: { agentId: string }, @PartnerId() partnerId: string) {
    return this.links.list(partnerId, agentId);
  }

  /** Used by the calls service during conversations, and by the partner route to test retrieval. */
  @Command(Subjects.agents.knowledgeSearch)
  search(@Data() data: KnowledgeSearchCommand, @PartnerId() partnerId: string) {
    return this.searcher.search(partnerId, data);
  }
}
