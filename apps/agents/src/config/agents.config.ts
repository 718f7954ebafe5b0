import { BaseServiceConfig, IntSetting } from '@vap/runtime';

export class AgentsConfig extends BaseServiceConfig {
  /** HTTP port: health and metrics. */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3001;

  /**
   * Days an integration log entry (a request made to a partner's systems) is kept; older entries are
   * deleted hourly.
   */
  @IntSetting({ min: 1, max: 3650 })
  INTEGRATION_LOG_RETENTION_DAYS: number = 30;
}
