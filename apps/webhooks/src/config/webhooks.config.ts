import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { BaseServiceConfig, toInt } from '@vap/runtime';

export class WebhooksConfig extends BaseServiceConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3004;
}
