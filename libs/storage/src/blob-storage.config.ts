import { hkdfSync } from 'node:crypto';
import { IsIn, IsOptional, IsString, Matches, MinLength, ValidateIf } from 'class-validator';
import { DevelopmentValue } from '@vap/runtime';
import { DEV_SECRETS_KEY, isDevelopmentSecret } from '@vap/secrets';

/** Where the gateway serves the local driver's signed URLs. */
const UPLOADS_PATH = '/api/v2/uploads';

/**
 * Where blobs live, validated at boot by every app that stores blobs. All must agree: the same driver, the
 * same BLOB_STORAGE_DIR (a relative dir is resolved against the working directory, the repository root when
 * the platform runs from source) or bucket. Enough for an app that only writes (voice's recordings).
 */
export class BlobStoreConfig {
  /** `local` (files under BLOB_STORAGE_DIR, signed URLs served by the gateway at /api/v2/uploads/{token}) or `s3`. */
  @IsIn(['local', 's3'], { message: 'BLOB_STORAGE_DRIVER must be local or s3' })
  BLOB_STORAGE_DRIVER: 'local' | 's3' = 'local';

  /** local driver: where objects live. */
  @IsString()
  @MinLength(1)
  BLOB_STORAGE_DIR: string = '.data/blobs';

  /** s3 driver: endpoint of an S3-compatible service (MinIO, R2, ...); unset means AWS S3. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'S3_ENDPOINT must be an http(s) URL' })
  S3_ENDPOINT?: string;

  /** s3 driver: the bucket (presigned PUT and GET URLs point at it). */
  @ValidateIf((c: BlobStoreConfig) => c.BLOB_STORAGE_DRIVER === 's3')
  @IsString({ message: 'S3_BUCKET is required when BLOB_STORAGE_DRIVER=s3' })
  @MinLength(3, { message: 'S3_BUCKET is required when BLOB_STORAGE_DRIVER=s3' })
  S3_BUCKET?: string;

  /** s3 driver: the bucket's region. */
  @IsString()
  S3_REGION: string = 'us-east-1';

  /** Static credentials; unset means the SDK's default chain (e.g. a workload identity). */
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  /** s3 driver: the secret of S3_ACCESS_KEY_ID. */
  @ValidateIf((c: BlobStoreConfig) => !!c.S3_ACCESS_KEY_ID)
  @IsString({ message: 'S3_SECRET_ACCESS_KEY is required with S3_ACCESS_KEY_ID' })
  S3_SECRET_ACCESS_KEY?: string;

  /** Path-style URLs (bucket in the path), which most S3-compatible services need; default: on with an endpoint. */
  @IsOptional()
  @IsIn(['true', 'false'])
  S3_FORCE_PATH_STYLE?: string;
}

/**
 * Blob storage with signed URLs, for the apps that hand them out or serve them (gateway, agents, calls):
 * they must also share the signing key.
 */
export class BlobStorageConfig extends BlobStoreConfig {
  /** The gateway's public base URL; the local driver's signed URLs are absolute on it when it is set. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'PUBLIC_BASE_URL must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  /**
   * local driver: the base of its signed URLs, served by the gateway. Default: `{PUBLIC_BASE_URL}/api/v2/uploads`,
   * or, without PUBLIC_BASE_URL, the relative `/api/v2/uploads` ("on the gateway that answered").
   */
  @IsOptional()
  @Matches(/^(https?:\/\/[^\s]+|\/[^\s]*)$/, {
    message: 'BLOB_SIGNED_URL_BASE must be an http(s) URL or an absolute path',
  })
  BLOB_SIGNED_URL_BASE?: string;

  get signedUrlBase(): string {
    const base =
      this.BLOB_SIGNED_URL_BASE ??
      (this.PUBLIC_BASE_URL ? `${this.PUBLIC_BASE_URL.replace(/\/+$/, '')}${UPLOADS_PATH}` : UPLOADS_PATH);
    return base.replace(/\/+$/, '');
  }

  /** local driver: HMAC key of signed URLs (32+ characters); derived from SECRETS_KEY when unset. */
  @DevelopmentValue(undefined, { refuse: isDevelopmentSecret })
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'BLOB_SIGNING_KEY must be at least 32 characters' })
  BLOB_SIGNING_KEY?: string;

  /** The platform's secrets key (a fixed key in development only); the signing key derives from it. */
  @DevelopmentValue(DEV_SECRETS_KEY, { refuse: isDevelopmentSecret })
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SECRETS_KEY must be at least 32 characters' })
  SECRETS_KEY?: string;

  @ValidateIf((c: BlobStorageConfig) => c.BLOB_STORAGE_DRIVER === 'local')
  @IsString({
    message:
      'BLOB_SIGNING_KEY or SECRETS_KEY is required with the local driver (unless NODE_ENV=development)',
  })
  get signingSecret(): string | undefined {
    return this.BLOB_SIGNING_KEY ?? this.SECRETS_KEY;
  }
}

/** The HMAC key of signed URLs: derived, so that the signing key never equals a key used for anything else. */
export function blobSigningKey(config: BlobStorageConfig): Buffer {
  const secret = config.signingSecret;
  if (!secret) throw new Error('no blob signing secret configured');
  return Buffer.from(hkdfSync('sha256', secret, 'vap-blob-storage', 'signed blob urls v1', 32));
}
