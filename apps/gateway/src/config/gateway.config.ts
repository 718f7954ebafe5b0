import { Transform } from 'class-transformer';
import { IsInt, IsString, Matches, Max, MinLength, Min } from 'class-validator';
import { BaseServiceConfig, toInt } from '@vap/runtime';

export const DEV_ADMIN_TOKEN = 'dev-admin-token';

export class GatewayConfig extends BaseServiceConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  /**
   * Bearer token of the operator API (/admin/v1). Development (NODE_ENV unset or development) falls back
   * to `dev-admin-token` so `nx serve gateway` works alone; anywhere else a missing token refuses to start.
   */
  @IsString({ message: 'ADMIN_API_TOKEN is required (the operator API token)' })
  @MinLength(12, { message: 'ADMIN_API_TOKEN must be set, at least 12 characters' })
  ADMIN_API_TOKEN: string = (process.env.NODE_ENV ?? 'development') === 'development' ? DEV_ADMIN_TOKEN : '';

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

  /** How often the gateway asks the calls service for charges it has not debited (also once at start). */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  BILLING_RECONCILE_INTERVAL_MS: number = 300_000;
}
