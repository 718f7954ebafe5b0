import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateDictionaryDto,
  DictionaryDeletedDto,
  DictionaryDto,
  DictionaryLimits,
  DictionaryListDto,
  ListDictionariesQueryDto,
  UpdateDictionaryDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const DICTIONARY_ID = { name: 'id', format: 'uuid', description: 'The dictionary id' };
const RESOURCE = 'Dictionary';
const L = DictionaryLimits;

/** Pronunciation dictionaries an account's agents use (dictionary_ids); the agents service owns them. */
@ApiTags('Dictionaries')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/dictionaries`)
export class DictionariesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a pronunciation dictionary',
    description:
      `Words the account's agents should hear and say right (names, brands, products). name is 1 to ${L.nameMax} ` +
      `characters; entries at most ${L.entriesMax}, each a word (1 to ${L.wordMax} characters, each word once, ` +
      `case-insensitively) with an optional alias (up to ${L.aliasMax} characters: text spoken instead) and ipa (up to ` +
      `${L.ipaMax} IPA characters). Every word is boosted in recognition; alias and ipa change how it is spoken. ` +
      `An account has at most ${L.perAccount} dictionaries (429 LIMIT_REACHED).`,
  })
  @ApiEnvelope(DictionaryDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.LIMIT_REACHED)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateDictionaryDto): Promise<DictionaryDto> {
    return this.rpc.request(Subjects.agents.dictionaryCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List dictionaries (cursor pagination, oldest first)',
    description: 'Each with its entry_count; GET /dictionaries/{id} answers the entries.',
  })
  @ApiEnvelope(DictionaryListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListDictionariesQueryDto,
  ): Promise<DictionaryListDto> {
    return this.rpc.request(Subjects.agents.dictionaryList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a dictionary with its entries' })
  @ApiParam(DICTIONARY_ID)
  @ApiEnvelope(DictionaryDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE)) id: string,
  ): Promise<DictionaryDto> {
    return this.rpc.request(Subjects.agents.dictionaryGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a dictionary',
    description:
      'Fields left out keep their values; entries, when sent, replace the list whole; description null clears it. ' +
      'Calls already running keep the words they started with; the next calls use the new ones.',
  })
  @ApiParam(DICTIONARY_ID)
  @ApiEnvelope(DictionaryDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE)) id: string,
    @Body() body: UpdateDictionaryDto,
  ): Promise<DictionaryDto> {
    return this.rpc.request(Subjects.agents.dictionaryUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a dictionary',
    description:
      '409 CONFLICT while agents use it: the message names them (id and agent_name); remove it from their ' +
      'dictionary_ids (PUT /agent/{id}) first. Deleted agents do not count.',
  })
  @ApiParam(DICTIONARY_ID)
  @ApiEnvelope(DictionaryDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE)) id: string,
  ): Promise<DictionaryDeletedDto> {
    return this.rpc.request(Subjects.agents.dictionaryDelete, auth.partner, { id });
  }
}
