import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateProjectDto,
  ListProjectsQueryDto,
  ProjectDeletedDto,
  ProjectDto,
  ProjectLimits,
  ProjectListDto,
  UpdateProjectDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const PROJECT_ID = { name: 'id', format: 'uuid', description: 'The project id' };
const RESOURCE = 'Project';

/** Projects group an account's agents (and their campaigns); the agents service owns them. */
@ApiTags('Projects')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/projects`)
export class ProjectsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a project',
    description:
      `name is 1 to ${ProjectLimits.nameMax} characters (names need not be unique). An account has at most ` +
      `${ProjectLimits.perAccount} projects, the default one included (429 LIMIT_REACHED).`,
  })
  @ApiEnvelope(ProjectDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.LIMIT_REACHED)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateProjectDto): Promise<ProjectDto> {
    return this.rpc.request(Subjects.agents.projectCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List projects (cursor pagination, oldest first)',
    description: 'The default project is always there: listing creates it when the account has none yet.',
  })
  @ApiEnvelope(ProjectListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListProjectsQueryDto): Promise<ProjectListDto> {
    return this.rpc.request(Subjects.agents.projectList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a project' })
  @ApiParam(PROJECT_ID)
  @ApiEnvelope(ProjectDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(@CurrentPartner() auth: AuthContext, @Param('id', idParam(RESOURCE)) id: string): Promise<ProjectDto> {
    return this.rpc.request(Subjects.agents.projectGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a project',
    description:
      'Fields left out keep their values; description null clears it. The default project can be renamed.',
  })
  @ApiParam(PROJECT_ID)
  @ApiEnvelope(ProjectDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE)) id: string,
    @Body() body: UpdateProjectDto,
  ): Promise<ProjectDto> {
    return this.rpc.request(Subjects.agents.projectUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a project',
    description:
      '409 INVALID_STATE for the default project, and for a project that still holds agents (move them with ' +
      'PATCH /agent/{id} project_id, or delete them, first); the message says which. Campaigns belong to their ' +
      'agent’s project, so an empty project has none.',
  })
  @ApiParam(PROJECT_ID)
  @ApiEnvelope(ProjectDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam(RESOURCE)) id: string,
  ): Promise<ProjectDeletedDto> {
    return this.rpc.request(Subjects.agents.projectDelete, auth.partner, { id });
  }
}
