import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AgentKnowledgeDocumentListDto,
  DocumentMessageDto,
  KnowledgeSearchCommand,
  KnowledgeSearchResponseDto,
  LinkAgentDocumentsDto,
  RpcRequest,
  Subjects,
} from '@vap/contracts';
import { partnerOf } from '../common/caller';
import { AgentDocumentsService } from './agent-documents.service';
import { KnowledgeSearchService } from './search/knowledge-search.service';

/** NATS commands of the knowledge base: links between agents and documents, and search. */
@Controller()
export class KnowledgeHandlers {
  constructor(
    private readonly links: AgentDocumentsService,
    private readonly searcher: KnowledgeSearchService,
  ) {}

  @MessagePattern(Subjects.agents.agentDocumentLink)
  link(
    @Payload() req: RpcRequest<{ agentId: string; body: LinkAgentDocumentsDto }>,
  ): Promise<AgentKnowledgeDocumentListDto> {
    return this.links.link(partnerOf(req), req.data.agentId, req.data.body);
  }

  @MessagePattern(Subjects.agents.agentDocumentUnlink)
  unlink(@Payload() req: RpcRequest<{ agentId: string; documentId: string }>): Promise<DocumentMessageDto> {
    return this.links.unlink(partnerOf(req), req.data.agentId, req.data.documentId);
  }

  @MessagePattern(Subjects.agents.agentDocumentList)
  list(@Payload() req: RpcRequest<{ agentId: string }>): Promise<AgentKnowledgeDocumentListDto> {
    return this.links.list(partnerOf(req), req.data.agentId);
  }

  /** Used by the calls service during conversations, and by the partner route to test retrieval. */
  @MessagePattern(Subjects.agents.knowledgeSearch)
  search(@Payload() req: RpcRequest<KnowledgeSearchCommand>): Promise<KnowledgeSearchResponseDto> {
    return this.searcher.search(partnerOf(req), req.data);
  }
}
