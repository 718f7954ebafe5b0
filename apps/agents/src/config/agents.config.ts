import { BaseServiceConfig, IntSetting } from '@vap/runtime';

export class AgentsConfig extends BaseServiceConfig {
  /** HTTP port: health and metrics. */
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3001;
}
