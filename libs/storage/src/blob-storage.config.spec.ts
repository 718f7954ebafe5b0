import { ConfigError, validateConfig } from '@vap/runtime';
import { BlobStorageConfig, blobSigningKey } from './blob-storage.config';

describe('BlobStorageConfig', () => {
  it('defaults to the local driver under .data/blobs, with a development signing key in development only', () => {
    const config = validateConfig(BlobStorageConfig, { NODE_ENV: 'development' });
    expect(config.BLOB_STORAGE_DRIVER).toBe('local');
    expect(config.BLOB_STORAGE_DIR).toBe('.data/blobs');
    expect(config.signedUrlBase).toBe('/api/v2/uploads');
    expect(blobSigningKey(config)).toHaveLength(32);
  });

  it('derives the same key in every app from the same secret, and different keys from different secrets', () => {
    const a = blobSigningKey(validateConfig(BlobStorageConfig, { SECRETS_KEY: 'a'.repeat(64) }));
    const b = blobSigningKey(validateConfig(BlobStorageConfig, { SECRETS_KEY: 'a'.repeat(64) }));
    const c = blobSigningKey(validateConfig(BlobStorageConfig, { SECRETS_KEY: 'b'.repeat(64) }));
    const own = blobSigningKey(
      validateConfig(BlobStorageConfig, { SECRETS_KEY: 'a'.repeat(64), BLOB_SIGNING_KEY: 'k'.repeat(40) }),
    );
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    expect(own.equals(a)).toBe(false);
    // The derived key is not the secret itself.
    expect(a.equals(Buffer.from('a'.repeat(32)))).toBe(false);
  });

  it('refuses to run the local driver without a secret unless NODE_ENV=development', () => {
    expect(() => validateConfig(BlobStorageConfig, { NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => validateConfig(BlobStorageConfig, {})).toThrow(/BLOB_SIGNING_KEY or SECRETS_KEY/);
    expect(() => validateConfig(BlobStorageConfig, { NODE_ENV: 'test' })).toThrow(ConfigError);
    expect(() =>
      validateConfig(BlobStorageConfig, { NODE_ENV: 'production', SECRETS_KEY: 'x'.repeat(64) }),
    ).not.toThrow();
  });

  it('needs a bucket for the s3 driver and checks the other settings', () => {
    expect(() => validateConfig(BlobStorageConfig, { BLOB_STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
    expect(() =>
      validateConfig(BlobStorageConfig, { BLOB_STORAGE_DRIVER: 's3', S3_BUCKET: 'kb-docs' }),
    ).not.toThrow();
    expect(() => validateConfig(BlobStorageConfig, { BLOB_STORAGE_DRIVER: 'gcs' })).toThrow(
      /BLOB_STORAGE_DRIVER/,
    );
    expect(() => validateConfig(BlobStorageConfig, { BLOB_SIGNING_KEY: 'short' })).toThrow(
      /BLOB_SIGNING_KEY/,
    );
    expect(() =>
      validateConfig(BlobStorageConfig, {
        BLOB_STORAGE_DRIVER: 's3',
        S3_BUCKET: 'kb-docs',
        S3_ENDPOINT: 'minio:9000',
      }),
    ).toThrow(/S3_ENDPOINT/);
    expect(
      validateConfig(BlobStorageConfig, {
        NODE_ENV: 'production',
        BLOB_STORAGE_DRIVER: 's3',
        S3_BUCKET: 'kb-docs',
        S3_ENDPOINT: 'http://minio:9000',
      }).S3_BUCKET,
    ).toBe('kb-docs');
  });

  it('makes signed URLs absolute on PUBLIC_BASE_URL unless BLOB_SIGNED_URL_BASE says otherwise', () => {
    const env = { SECRETS_KEY: 'a'.repeat(64) };
    const base = (more: Record<string, string>) =>
      validateConfig(BlobStorageConfig, { ...env, ...more }).signedUrlBase;
    expect(base({ PUBLIC_BASE_URL: 'https://api.example.com/' })).toBe(
      'https://api.example.com/api/v2/uploads',
    );
    expect(base({ PUBLIC_BASE_URL: 'https://api.example.com', BLOB_SIGNED_URL_BASE: '/files/' })).toBe(
      '/files',
    );
    expect(() => base({ PUBLIC_BASE_URL: 'api.example.com' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
