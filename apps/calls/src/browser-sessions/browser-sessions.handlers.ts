import { Controller } from '@nestjs/common';
import { CreateBrowserSessionDto, ListBrowserSessionsQueryDto } from '@vap/api';
import { ByIdRequest, PartnerContext, Subjects } from '@vap/messages';
import { Caller, Command, Data, PartnerId } from '@vap/messaging';
import { PartnerStanding } from '../partners/partner-standing';
import { CreateBrowserSession } from './usecases/create-browser-session/create-browser-session.usecase';
import { GetBrowserSession } from './usecases/get-browser-session/get-browser-session.usecase';
import { ListBrowserSessions } from './usecases/list-browser-sessions/list-browser-sessions.usecase';

/** The public browser-session commands (queue group: calls). */
@Controller()
export class BrowserSessionsHandlers {
  constructor(
    private readonly createBrowserSession: CreateBrowserSession,
    private readonly getBrowserSession: GetBrowserSession,
    private readonly listBrowserSessions: ListBrowserSessions,
    private readonly standing: PartnerStanding,
  ) {}

  @Command(Subjects.calls.browserSessionCreate)
  async create(@Data() input: CreateBrowserSessionDto, @Caller() partner: PartnerContext) {
    // As for a call: a suspended or not yet approved partner opens no session.
    await this.standing.assertMayCall(partner);
    return this.createBrowserSession.execute(partner, input);
  }

  /** The campaigns service's test runner: a session like any other, billed at the test rate. */
  @Command(Subjects.calls.testSessionCreate)
  async createForTest(@Data() input: CreateBrowserSessionDto, @Caller() partner: PartnerContext) {
    await this.standing.assertMayCall(partner);
    return this.createBrowserSession.execute(partner, input, 'test');
  }

  @Command(Subjects.calls.browserSessionGet)
  get(@Data() request: ByIdRequest, @PartnerId() partnerId: string) {
    return this.getBrowserSession.execute(partnerId, request.id);
  }

  @Command(Subjects.calls.browserSessionList)
  list(@Data() query: ListBrowserSessionsQueryDto, @PartnerId() partnerId: string) {
    return this.listBrowserSessions.execute(partnerId, query);
  }
}
