import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  CallingWindow,
  CallingWindowDto,
  CampaignDeletedDto,
  CampaignDto,
  CampaignListDto,
  CampaignStateMessages,
  CreateCampaignDto,
  ListCampaignsQueryDto,
  resolveCallingWindow,
  UpdateCampaignDto,
} from '@vap/api';
import { AppError, CampaignId, ErrorCode } from '@vap/messages';
import { CampaignClock } from '../clock/campaign-clock';
import { CampaignReferences } from './campaign-references';
import { CampaignWaits } from './campaign-waits';
import { CampaignRow, toCampaignDto } from './campaign-row';
import { CampaignFields, CampaignsRepository } from './campaigns.repository';

/** retry_concurrency is judged against the concurrency_limit the campaign ends up with. */
export function assertRetryConcurrency(concurrency: number, retryConcurrency: number): void {
  if (retryConcurrency > concurrency) {
    throw AppError.validation([
      {
        field: 'retry_concurrency',
        message: `retry_concurrency must be 0..concurrency_limit (${concurrency})`,
      },
    ]);
  }
}

/** Create, read, update and delete of campaigns; state moves live in CampaignLifecycle. */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: CampaignsRepository,
    private readonly refs: CampaignReferences,
    private readonly waits: CampaignWaits,
    private readonly clock: CampaignClock,
  ) {}

  async create(partnerId: string, input: CreateCampaignDto): Promise<CampaignDto> {
    const agent = await this.refs.agent(partnerId, input.agent_id);
    const callers = await this.refs.callerIds(partnerId, input.phone_number_ids ?? []);
    const fields: CampaignFields = {
      name: input.name,
      description: input.description ?? '',
      agent_id: agent.id,
      agent_name: agent.agent_name,
      provider: callers.provider,
      phone_numbers: callers.phoneNumbers,
      concurrency_limit: input.concurrency_limit ?? 1,
      retry_concurrency: input.retry_concurrency ?? 0,
      retry_count: input.retry_count ?? 0,
      cooldown_minutes: input.cooldown_minutes ?? 0,
      retry_delays_minutes: input.retry_delays_minutes ?? [],
      callback_enabled: input.callback_enabled ?? false,
      calling_window: callingWindowOf(input.calling_window) ?? null,
    };
    assertRetryConcurrency(fields.concurrency_limit, fields.retry_concurrency);
    const row = await this.dataSource.transaction((em) =>
      this.repo.insert(em, CampaignId.format(randomUUID()), partnerId, input.type ?? 'outbound', fields),
    );
    return toCampaignDto(row);
  }

  // Campaigns and their waits are read in one snapshot: read apart, a contact settling in between would show
  // a campaign waiting with nothing in flight while its counters still miss that contact's outcome.
  async get(partnerId: string, id: string): Promise<CampaignDto> {
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      const row = await this.repo.find(partnerId, id, em);
      const waits = await this.waits.of([row], em);
      return toCampaignDto(row, waits.get(row.id));
    });
  }

  async list(partnerId: string, query: ListCampaignsQueryDto): Promise<CampaignListDto> {
    // Asked of the agents service at read time, so an agent moved to another project takes its campaigns along.
    const agentIds = query.project_id
      ? await this.refs.agentIdsInProject(partnerId, query.project_id)
      : undefined;
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      const page = await this.repo.list(partnerId, query, query.status, em, agentIds);
      const waits = await this.waits.of(page.rows, em);
      return {
        campaigns: page.rows.map((row) => toCampaignDto(row, waits.get(row.id))),
        next_cursor: page.nextCursor,
      };
    });
  }

  /** PATCH while draft or paused. The agent and caller IDs are checked before the campaign is locked. */
  async update(partnerId: string, id: string, changes: UpdateCampaignDto): Promise<CampaignDto> {
    const current = await this.repo.find(partnerId, id);
    assertEditable(current);
    const agent = changes.agent_id !== undefined ? await this.refs.agent(partnerId, changes.agent_id) : null;
    const window = callingWindowOf(changes.calling_window);
    const callers =
      changes.phone_number_ids !== undefined
        ? await this.refs.callerIds(partnerId, changes.phone_number_ids)
        : null;
    const row = await this.dataSource.transaction(async (em) => {
      const locked = await this.repo.lock(em, partnerId, id);
      assertEditable(locked);
      const fields: CampaignFields = {
        name: changes.name ?? locked.name,
        description: changes.description ?? locked.description,
        agent_id: agent?.id ?? locked.agent_id,
        agent_name: agent?.agent_name ?? locked.agent_name,
        provider: callers ? callers.provider : locked.provider,
        phone_numbers: callers?.phoneNumbers ?? locked.phone_numbers,
        concurrency_limit: changes.concurrency_limit ?? locked.concurrency_limit,
        retry_concurrency: changes.retry_concurrency ?? locked.retry_concurrency,
        retry_count: changes.retry_count ?? locked.retry_count,
        cooldown_minutes: changes.cooldown_minutes ?? locked.cooldown_minutes,
        retry_delays_minutes: changes.retry_delays_minutes ?? locked.retry_delays_minutes,
        callback_enabled: changes.callback_enabled ?? locked.callback_enabled,
        calling_window: window !== undefined ? window : locked.calling_window,
      };
      assertRetryConcurrency(fields.concurrency_limit, fields.retry_concurrency);
      if (window !== undefined) await this.repo.recheckPolicyWaits(em, id, this.clock.now());
      return this.repo.update(em, id, fields);
    });
    return toCampaignDto(row);
  }

  /** Not while running; the contacts and attempts go with it, calls in flight finish on their own. */
  async delete(partnerId: string, id: string): Promise<CampaignDeletedDto> {
    await this.dataSource.transaction(async (em) => {
      const locked = await this.repo.lock(em, partnerId, id);
      if (locked.status === 'running')
        throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.delete);
      await this.repo.delete(em, id);
    });
    return { campaign_id: id, deleted: true };
  }
}

/** The written override resolved (null clears it, undefined leaves it), or a 400 naming its problems. */
function callingWindowOf(input: CallingWindowDto | null | undefined): CallingWindow | null | undefined {
  if (input === undefined || input === null) return input;
  const resolved = resolveCallingWindow(input, 'calling_window');
  if ('problems' in resolved) throw AppError.validation(resolved.problems);
  return resolved.window;
}

function assertEditable(row: CampaignRow): void {
  if (row.status !== 'draft' && row.status !== 'paused') {
    throw new AppError(ErrorCode.INVALID_STATE, CampaignStateMessages.update);
  }
}
