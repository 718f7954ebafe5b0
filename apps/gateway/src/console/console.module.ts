import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AdminUsersController } from './admin-users.controller';
import { ConsoleAuth } from './console-auth';
import { ConsoleController } from './console.controller';
import { ConsoleOrigin, ConsoleSameOriginGuard } from './console-origin';
import { ConsoleSessionsService } from './console-sessions.service';
import { ConsoleUsersService } from './console-users.service';

/**
 * The partner console's server side: users and their one-time links, cookie sessions with CSRF protection,
 * the console's own routes (/console/api) and the operator's (/admin/v1/partners/{id}/users). The accounts
 * services it uses (keys, partners, lockout) come from the app module, which imports this one.
 */
@Module({
  imports: [AccountsModule],
  controllers: [ConsoleController, AdminUsersController],
  providers: [
    ConsoleAuth,
    ConsoleOrigin,
    ConsoleSameOriginGuard,
    ConsoleSessionsService,
    ConsoleUsersService,
  ],
  exports: [ConsoleAuth, ConsoleSessionsService],
})
export class ConsoleModule {}
