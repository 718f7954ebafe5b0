import { Transform } from 'class-transformer';
import { IsInt, IsString, Matches, Max, MinLength, Min } from 'class-validator';
import { BaseServiceConfig, DevelopmentValue, toInt } from '@vap/runtime';
import { DEV_ADMIN_TOKEN, isDevelopmentSecret } from '@vap/secrets';

export class GatewayConfig extends BaseServiceConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  /**
   * Bearer token of the operator API (/admin/v1). Only NODE_ENV=development falls back to
   * `dev-admin-token` (so `nx serve gateway` works alone); anywhere else it must be set, and not to that.
   */
  @DevelopmentValue(DEV_ADMIN_TOKEN, { refuse: isDevelopmentSecret })
  @IsString({ message: 'ADMIN_API_TOKEN is required (the operator API token)' })
  @MinLength(12, { message: 'ADMIN_API_TOKEN must be set, at least 12 characters' })
  ADMIN_API_TOKEN: string = '';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_GENERAL_PER_MINUTE: number = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_CALLS_PER_MINUTE: number = 10;

  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 1mb, 512kb or 1048576b' })
  BODY_LIMIT: string = '1mb';
}
