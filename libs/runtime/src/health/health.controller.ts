import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { NatsConnectionService, RpcClient } from '@vap/messaging';
import { HEALTH_OPTIONS, HealthOptions } from './health.options';
import { Public } from '../auth/public.decorator';

/** Liveness says the process answers; readiness says it can do its work (Postgres, NATS, peers). */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly nats: NatsConnectionService,
    private readonly rpc: RpcClient,
    @Inject(HEALTH_OPTIONS) private readonly options: HealthOptions,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      ...(this.options.database === false ? [] : [() => this.db.pingCheck('postgres', { timeout: 2000 })]),
      async () => {
        const indicator = this.indicators.check('nats');
        return (await this.nats.ping()) ? indicator.up() : indicator.down({ message: 'NATS unreachable' });
      },
      ...(this.options.peers ?? []).map((peer) => async () => {
        const indicator = this.indicators.check(peer);
        try {
          await this.rpc.request(`${peer}.health.ping`, null, {}, { timeoutMs: 2000 });
          return indicator.up();
        } catch {
          return indicator.down({ message: `${peer} does not answer over NATS` });
        }
      }),
      ...(this.options.checks ?? []).map((check) => () => {
        const indicator = this.indicators.check(check.name);
        const reason = check.notReadyReason();
        return reason === null ? indicator.up(check.detail?.()) : indicator.down({ message: reason });
      }),
    ]);
  }
}
