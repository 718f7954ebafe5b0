import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateTestRunDto,
  CreateTestScenarioDto,
  ListTestRunsQueryDto,
  ListTestScenariosQueryDto,
  TEST_RUN_ID_EXAMPLE,
  TEST_SCENARIO_ID_EXAMPLE,
  TestRunDto,
  TestRunListDto,
  TestScenarioDeletedDto,
  TestScenarioDto,
  TestScenarioListDto,
  UpdateTestScenarioDto,
} from '@vap/api';
import { ErrorCode, Subjects, TestRunId, TestScenarioId } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { RUN_DESCRIPTION, SCENARIO_DESCRIPTION } from './test-runs.docs';

const SCENARIO_ID = { name: 'id', example: TEST_SCENARIO_ID_EXAMPLE };
const RUN_ID = { name: 'id', example: TEST_RUN_ID_EXAMPLE };

/** Test scenarios: thin HTTP edge of the campaigns service's test runner. */
@ApiTags('Tests')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/test-scenarios`)
export class TestScenariosController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a test scenario', description: SCENARIO_DESCRIPTION })
  @ApiEnvelope(TestScenarioDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.LIMIT_REACHED)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateTestScenarioDto): Promise<TestScenarioDto> {
    return this.rpc.request(Subjects.campaigns.testScenarioCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List test scenarios, newest first (cursor pagination)' })
  @ApiEnvelope(TestScenarioListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ListTestScenariosQueryDto,
  ): Promise<TestScenarioListDto> {
    return this.rpc.request(Subjects.campaigns.testScenarioList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a test scenario' })
  @ApiParam(SCENARIO_ID)
  @ApiEnvelope(TestScenarioDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Test scenario', TestScenarioId)) id: string,
  ): Promise<TestScenarioDto> {
    return this.rpc.request(Subjects.campaigns.testScenarioGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update a test scenario',
    description:
      'Any field; omitted fields keep their value. Runs already created keep the scenario as it was.',
  })
  @ApiParam(SCENARIO_ID)
  @ApiEnvelope(TestScenarioDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Test scenario', TestScenarioId)) id: string,
    @Body() body: UpdateTestScenarioDto,
  ): Promise<TestScenarioDto> {
    return this.rpc.request(Subjects.campaigns.testScenarioUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a test scenario',
    description: 'Runs already created keep their results.',
  })
  @ApiParam(SCENARIO_ID)
  @ApiEnvelope(TestScenarioDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Test scenario', TestScenarioId)) id: string,
  ): Promise<TestScenarioDeletedDto> {
    return this.rpc.request(Subjects.campaigns.testScenarioDelete, auth.partner, { id });
  }
}

/** Test runs: scenarios played against an agent over the voice pipeline, with their verdicts. */
@ApiTags('Tests')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/test-runs`)
export class TestRunsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Run test scenarios against an agent (queued)', description: RUN_DESCRIPTION })
  @ApiEnvelope(TestRunDto, 'Queued', 202)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.LIMIT_REACHED)
  create(@CurrentPartner() auth: AuthContext, @Body() body: CreateTestRunDto): Promise<TestRunDto> {
    return this.rpc.request(Subjects.campaigns.testRunCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List test runs, newest first (cursor pagination; filter by agent_id, status)' })
  @ApiEnvelope(TestRunListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  list(@CurrentPartner() auth: AuthContext, @Query() query: ListTestRunsQueryDto): Promise<TestRunListDto> {
    return this.rpc.request(Subjects.campaigns.testRunList, auth.partner, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a test run with each scenario’s attempts, verdicts and judge' })
  @ApiParam(RUN_ID)
  @ApiEnvelope(TestRunDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Test run', TestRunId)) id: string,
  ): Promise<TestRunDto> {
    return this.rpc.request(Subjects.campaigns.testRunGet, auth.partner, { id });
  }
}
