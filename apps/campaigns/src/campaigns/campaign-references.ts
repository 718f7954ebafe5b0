import { Injectable } from '@nestjs/common';
import { AgentDto, CampaignPhoneNumberDto, PhoneNumberDto } from '@vap/api';
import { AppError, ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';

export interface CallerIds {
  phoneNumbers: CampaignPhoneNumberDto[];
  /** Their common carrier, or null when they differ. */
  provider: string | null;
}

/** What a campaign points at in other services: its agent (agents) and its caller IDs (calls). */
@Injectable()
export class CampaignReferences {
  constructor(private readonly rpc: RpcClient) {}

  /** The partner's agent; 404 NOT_FOUND when absent, another partner's or deleted. */
  agent(partnerId: string, agentId: string): Promise<AgentDto> {
    return this.rpc.request(Subjects.agents.agentGet, partnerId, { id: agentId });
  }

  /**
   * The ids of the partner's live agents in a project, every page of them: the project filter of the campaign
   * list (a campaign belongs to its agent's project). 404 NOT_FOUND for another account's or a deleted project.
   */
  async agentIdsInProject(partnerId: string, projectId: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.rpc.request(Subjects.agents.agentList, partnerId, {
        project_id: projectId,
        limit: 100,
        cursor,
      });
      ids.push(...page.agents.map((a) => a.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return ids;
  }

  /** The numbers by id (404 for one that is not the partner's), or the account's default from-number. */
  async callerIds(partnerId: string, ids: string[]): Promise<CallerIds> {
    const numbers = ids.length
      ? await Promise.all(ids.map((id) => this.number(partnerId, id)))
      : [await this.defaultNumber(partnerId)];
    const providers = new Set(numbers.map((n) => n.provider));
    return {
      phoneNumbers: numbers.map((n) => ({ phone_number_id: n.id, phone_number: n.number })),
      provider: providers.size === 1 ? numbers[0].provider : null,
    };
  }

  /** Refuses a start while any caller ID was deleted or is inactive. */
  async assertCallerIdsActive(partnerId: string, phoneNumbers: CampaignPhoneNumberDto[]): Promise<void> {
    for (const entry of phoneNumbers) {
      let number: PhoneNumberDto;
      try {
        number = await this.number(partnerId, entry.phone_number_id);
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.NOT_FOUND) {
          throw new AppError(
            ErrorCode.CALLER_ID_INACTIVE,
            `Caller ID ${entry.phone_number} no longer exists on the account`,
          );
        }
        throw err;
      }
      if (number.status !== 'active') {
        throw new AppError(
          ErrorCode.CALLER_ID_INACTIVE,
          `Caller ID ${entry.phone_number} is no longer active`,
        );
      }
    }
  }

  private number(partnerId: string, id: string): Promise<PhoneNumberDto> {
    return this.rpc.request(Subjects.calls.phoneNumberGet, partnerId, { id });
  }

  private async defaultNumber(partnerId: string): Promise<PhoneNumberDto> {
    // The default from-number is created with the account's sandbox line and listed among its first numbers.
    const page = await this.rpc.request(Subjects.calls.phoneNumberList, partnerId, {
      limit: 100,
    });
    const found =
      page.phone_numbers.find((n) => n.is_default && n.provider === 'sandbox') ??
      page.phone_numbers.find((n) => n.is_default);
    if (!found)
      throw new AppError(
        ErrorCode.CALLER_ID_INACTIVE,
        'The account has no default from-number; give phone_number_ids',
      );
    return found;
  }
}
