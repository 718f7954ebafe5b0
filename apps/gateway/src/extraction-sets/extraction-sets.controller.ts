import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateExtractionSetDto,
  ExtractionSetDeletedDto,
  ExtractionSetDto,
  ExtractionSetListDto,
  FromAgentDto,
  ListExtractionSetsQueryDto,
  UpdateExtractionSetDto,
} from '@vap/api';
import { ErrorCode, ExtractionSetId, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const SET_ID = { name: 'id', example: 'exs_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11' };

const KEY_RULES =
  'Keys: name matches ^[a-z][a-z0-9_]{0,63}$ and is unique in the list; type is boolean, string, date, number or enum; ' +
  'options (1..50 distinct values) is required for enum and refused otherwise; description is optional (max 500).';

@ApiTags('Extraction sets')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/extraction-sets`)
export class ExtractionSetsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an extraction set',
    description: `Names are unique on the account (409 CONFLICT). ${KEY_RULES}`,
  })
  @ApiEnvelope(ExtractionSetDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateExtractionSetDto,
  ): Promise<ExtractionSetDto> {
    return this.rpc.request(Subjects.agents.extractionSetCreate, auth.partner, body);
  }

  @Post('from-agent')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Promote an agent’s inline extraction keys into a set',
    description:
      'Exactly one of name (creates a set) or set_id (merges into that set), else 400 VALIDATION_ERROR. The set is ' +
      'attached to the agent and every inline key leaves the agent’s extraction_config. When merging, an inline key ' +
      'whose name the set already has is a 409 EXTRACTION_KEY_CLASH, unless on_conflict is keep_set_definition: then ' +
      'those inline keys are dropped and listed in dropped_inline_keys. When another change to the same agent or set ' +
      'is in flight the answer is 409 WRITE_CONFLICT and nothing changed: retry. 404 NOT_FOUND for an unknown, ' +
      'foreign or deleted agent or set.',
  })
  @ApiEnvelope(ExtractionSetDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.EXTRACTION_KEY_CLASH,
    ErrorCode.WRITE_CONFLICT,
  )
  fromAgent(@CurrentPartner() auth: AuthContext, @Body() body: FromAgentDto): Promise<ExtractionSetDto> {
    return this.rpc.request(Subjects.agents.extractionSetFromAgent, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List extraction sets (cursor pagination)' })
  @ApiEnvelope(ExtractionSetListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListExtractionSetsQueryDto,
  ): Promise<ExtractionSetListDto> {
    return this.rpc.request(Subjects.agents.extractionSetList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an extraction set' })
  @ApiParam(SET_ID)
  @ApiEnvelope(ExtractionSetDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Extraction set', ExtractionSetId)) id: string,
  ): Promise<ExtractionSetDto> {
    return this.rpc.request(Subjects.agents.extractionSetGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update an extraction set',
    description:
      'Fields left out keep their values; keys, when sent, replace the whole list. New keys must not clash with the ' +
      `keys of an agent the set is attached to (409 EXTRACTION_KEY_CLASH). ${KEY_RULES}`,
  })
  @ApiParam(SET_ID)
  @ApiEnvelope(ExtractionSetDto)
  @ApiErrors(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.EXTRACTION_KEY_CLASH,
    ErrorCode.WRITE_CONFLICT,
  )
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Extraction set', ExtractionSetId)) id: string,
    @Body() body: UpdateExtractionSetDto,
  ): Promise<ExtractionSetDto> {
    return this.rpc.request(Subjects.agents.extractionSetUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an extraction set; it is detached from every agent' })
  @ApiParam(SET_ID)
  @ApiEnvelope(ExtractionSetDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.WRITE_CONFLICT)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Extraction set', ExtractionSetId)) id: string,
  ): Promise<ExtractionSetDeletedDto> {
    return this.rpc.request(Subjects.agents.extractionSetDelete, auth.partner, { id });
  }
}
