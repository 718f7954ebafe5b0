import { ArgumentsHost, Catch, Logger } from '@nestjs/common';
import { BaseRpcExceptionFilter } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { databaseUnavailable, isDatabaseUnavailable } from '@vap/persistence';

/**
 * Nest's RPC exception layer as command handlers get it, with the one failure it would hide as a generic
 * error turned into its own answer first: a database that cannot be reached is a failed dependency (502),
 * not an unexpected error (500). AppErrors pass as they are; the rest become Nest's generic error (500).
 */
@Catch()
export class CommandExceptionFilter extends BaseRpcExceptionFilter {
  private readonly log = new Logger('CommandExceptions');

  override catch(exception: unknown, host: ArgumentsHost): Observable<unknown> {
    if (isDatabaseUnavailable(exception)) {
      this.log.warn(`a command failed: the database is unavailable: ${(exception as Error).message}`);
      return super.catch(databaseUnavailable(), host);
    }
    return super.catch(exception, host);
  }
}
