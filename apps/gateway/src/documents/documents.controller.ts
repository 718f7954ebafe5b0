import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateDocumentDto,
  CreateWebLinkDocumentDto,
  DocumentDto,
  DocumentLimits,
  DocumentListDto,
  DocumentMessageDto,
  DocumentUploadDto,
  ListDocumentsQueryDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { onPublicBase } from '../http/public-url';
import { GatewayConfig } from '../config/gateway.config';
import { idParam } from '../http/id-param';

const ID_PARAM = { name: 'id', format: 'uuid', description: 'Document id' } as const;

/** Thin HTTP edge of the knowledge-base documents, owned by the agents service. */
@ApiTags('Documents')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/documents`)
export class DocumentsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a document and get a signed upload URL',
    description:
      `Step 1 of an upload. Types: pdf, txt, md, html (what the knowledge base can index); at most ` +
      `${DocumentLimits.maxFileBytes} bytes (20 MB). The document starts in status uploading. PUT exactly ` +
      `file_size bytes to upload_url with the headers in upload_headers (no Authorization header; the URL is ` +
      `signed and expires after ${DocumentLimits.uploadUrlTtlSeconds / 60} minutes), then call ` +
      'POST /documents/{id}/confirm. In production upload_url points at S3-compatible object storage.',
  })
  @ApiEnvelope(DocumentUploadDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  async create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateDocumentDto,
  ): Promise<DocumentUploadDto> {
    const created = await this.rpc.request(Subjects.agents.documentCreate, auth.partner, body);
    return { ...created, upload_url: onPublicBase(this.config.PUBLIC_BASE_URL, created.upload_url) };
  }

  @Post('web-link')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a web-link document',
    description:
      'Ready at once, with no upload step. The page (HTML, plain text or PDF, public addresses only) is ' +
      'crawled and indexed when the document is linked to an agent.',
  })
  @ApiEnvelope(DocumentDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  createWebLink(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateWebLinkDocumentDto,
  ): Promise<DocumentDto> {
    return this.rpc.request(Subjects.agents.documentCreateWebLink, auth.partner, body);
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm an upload',
    description:
      'Verifies that the file exists at the upload location and moves the document from uploading to ready. ' +
      '400 when the file has not been uploaded; 409 CONFLICT when the document is already confirmed.',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(DocumentDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  confirm(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Document')) id: string,
  ): Promise<DocumentDto> {
    return this.rpc.request(Subjects.agents.documentConfirm, auth.partner, { id });
  }

  @Get()
  @ApiOperation({ summary: 'List documents (cursor pagination; filter by status, type and name)' })
  @ApiEnvelope(DocumentListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListDocumentsQueryDto): Promise<DocumentListDto> {
    return this.rpc.request(Subjects.agents.documentList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a document' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(DocumentDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Document')) id: string,
  ): Promise<DocumentDto> {
    return this.rpc.request(Subjects.agents.documentGet, auth.partner, { id });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a document',
    description:
      'Gone at once for every route and from the knowledge base of every agent it was linked to; the stored ' +
      'file and the indexed chunks are removed in the background.',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(DocumentMessageDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Document')) id: string,
  ): Promise<DocumentMessageDto> {
    return this.rpc.request(Subjects.agents.documentDelete, auth.partner, { id });
  }
}
