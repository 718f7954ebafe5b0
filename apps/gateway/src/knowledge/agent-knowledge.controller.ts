import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AgentKnowledgeDocumentListDto,
  DocumentMessageDto,
  KnowledgeSearchDto,
  KnowledgeSearchResponseDto,
  LinkAgentDocumentsDto,
} from '@vap/api';
import { ErrorCode, KB_THRESHOLD_MIN_SCORE, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const AGENT_PARAM = { name: 'agentId', format: 'uuid', description: 'Agent id' } as const;
const THRESHOLDS = Object.entries(KB_THRESHOLD_MIN_SCORE)
  .map(([k, v]) => `${k} ≥ ${v}`)
  .join(', ');

/** An agent's knowledge base: linked documents, their indexing state, and retrieval. */
@ApiTags('Knowledge base')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/agent/:agentId`)
export class AgentKnowledgeController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('documents')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Link documents to an agent',
    description:
      'Links ready documents (document_id, or several in document_ids) and queues their indexing for this ' +
      'agent: text is extracted (PDF, HTML, text; web links are crawled), split into chunks of about 800 ' +
      'characters overlapping by up to 150, and indexed for full-text search. Follow index_status on ' +
      'GET /agent/{agentId}/documents. Linking a document that is already linked changes nothing. ' +
      '409 INVALID_STATE for a document still uploading.',
  })
  @ApiParam(AGENT_PARAM)
  @ApiEnvelope(AgentKnowledgeDocumentListDto, "The agent's linked documents after the change")
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  link(
    @CurrentPartner() auth: AuthContext,
    @Param('agentId', idParam('Agent')) agentId: string,
    @Body() body: LinkAgentDocumentsDto,
  ): Promise<AgentKnowledgeDocumentListDto> {
    return this.rpc.request(Subjects.agents.agentDocumentLink, auth.partner, { agentId, body });
  }

  @Get('documents')
  @ApiOperation({ summary: "List an agent's linked documents with their indexing state" })
  @ApiParam(AGENT_PARAM)
  @ApiEnvelope(AgentKnowledgeDocumentListDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  list(
    @CurrentPartner() auth: AuthContext,
    @Param('agentId', idParam('Agent')) agentId: string,
  ): Promise<AgentKnowledgeDocumentListDto> {
    return this.rpc.request(Subjects.agents.agentDocumentList, auth.partner, { agentId });
  }

  @Delete('documents/:documentId')
  @ApiOperation({
    summary: 'Unlink a document from an agent',
    description:
      "The document remains. It leaves the agent's search at once; its indexed chunks are removed in the " +
      'background. 404 NOT_FOUND when the document is not linked to the agent.',
  })
  @ApiParam(AGENT_PARAM)
  @ApiParam({ name: 'documentId', format: 'uuid', description: 'Document id' })
  @ApiEnvelope(DocumentMessageDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  unlink(
    @CurrentPartner() auth: AuthContext,
    @Param('agentId', idParam('Agent')) agentId: string,
    @Param('documentId') documentId: string,
  ): Promise<DocumentMessageDto> {
    return this.rpc.request(Subjects.agents.agentDocumentUnlink, auth.partner, { agentId, documentId });
  }

  @Post('knowledge/search')
  @HttpCode(200)
  @ApiOperation({
    summary: "Search an agent's knowledge base",
    description:
      'Runs the retrieval the agent uses during calls, to test it. Results honour the agent settings: ' +
      `kb_threshold sets the minimum score (${THRESHOLDS}; null = medium), kb_include_summaries adds each ` +
      "document's summary (its opening sentences), kb_result_format renders each result (placeholders " +
      '{content} {document_name} {document_id} {summary} {score} {rank} {chunk_index}; {{ and }} for literal ' +
      'braces; null = {content}).',
  })
  @ApiParam(AGENT_PARAM)
  @ApiEnvelope(KnowledgeSearchResponseDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  search(
    @CurrentPartner() auth: AuthContext,
    @Param('agentId', idParam('Agent')) agentId: string,
    @Body() body: KnowledgeSearchDto,
  ): Promise<KnowledgeSearchResponseDto> {
    return this.rpc.request(Subjects.agents.knowledgeSearch, auth.partner, { agentId, ...body });
  }
}
