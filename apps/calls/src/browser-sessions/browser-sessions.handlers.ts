import { Controller } from '@nestjs/common';
import { CreateBrowserSessionDto, ListBrowserSessionsQueryDto } from '@vap/api';
import { ByIdRequest, PartnerContext, Subjects } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { PartnerStanding } from '../partners/partner-standing';
import { BrowserSessionsService } from './browser-sessions.service';

/** The public browser-session commands (queue group: calls). */
@Controller()
export class BrowserSessionsHandlers {
  constructor(
    private readonly sessions: BrowserSessionsService,
    private readonly standing: PartnerStanding,
  ) {}

  @Command(Subjects.calls.browserSessionCreate)
  async create(@Data() input: CreateBrowserSessionDto, @Caller() partner: PartnerContext) {
    // As for a call: a suspended or not yet approved partner opens no session.
    await this.standing.assertMayCall(partner);
    return this.sessions.create(partner, input);
  }

  @Command(Subjects.calls.browserSessionGet)
  get(@Data() request: ByIdRequest, @PartnerId() partnerId: string) {
    return this.sessions.get(partnerId, request.id);
  }

  @Command(Subjects.calls.browserSessionList)
  list(@Data() query: ListBrowserSessionsQueryDto, @PartnerId() partnerId: string) {
    return this.sessions.list(partnerId, query);
  }
}
