import { AgentKnowledgeDocumentDto } from '@vap/api';
import { Document } from '../documents/entities/document.entity';
import { AgentDocument } from './entities/agent-document.entity';

export function toAgentKnowledgeDocumentDto(
  link: AgentDocument,
  document: Document,
): AgentKnowledgeDocumentDto {
  return {
    document_id: document.id,
    agent_id: link.agentId,
    name: document.name,
    type: document.type,
    status: document.status,
    url: document.url,
    index_status: link.indexStatus,
    index_error: link.indexError,
    chunk_count: link.chunkCount,
    indexed_at: link.indexedAt ? link.indexedAt.toISOString() : null,
    linked_at: link.createdAt.toISOString(),
  };
}
