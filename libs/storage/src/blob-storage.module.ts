import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { BLOB_STORAGE, BlobStorage } from './blob-storage';
import { BlobStorageConfig, blobSigningKey, BlobStoreConfig } from './blob-storage.config';
import { LocalBlobStorage } from './local/local-blob-storage';
import { S3BlobStorage } from './s3/s3-blob-storage';
import { BlobUrlSigner } from './signing/blob-url-signer';

/**
 * The storage the config selects. Without a signer (an app that only writes, with no signing key) the local
 * driver cannot presign URLs.
 */
export function createBlobStorage(config: BlobStoreConfig, signer: BlobUrlSigner | null): BlobStorage {
  if (config.BLOB_STORAGE_DRIVER === 's3') {
    return new S3BlobStorage({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE
        ? config.S3_FORCE_PATH_STYLE === 'true'
        : !!config.S3_ENDPOINT,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
    });
  }
  return new LocalBlobStorage(
    config.BLOB_STORAGE_DIR,
    signer,
    config instanceof BlobStorageConfig ? config.signedUrlBase : '',
  );
}

@Injectable()
class BlobStorageShutdown implements OnApplicationShutdown {
  constructor(@Inject(BLOB_STORAGE) private readonly storage: BlobStorage) {}

  onApplicationShutdown(): void {
    if (this.storage instanceof S3BlobStorage) this.storage.destroy();
  }
}

/** Provides BLOB_STORAGE and the URL signer (for the gateway's signed-URL routes) of the validated config. */
@Global()
@Module({})
export class BlobStorageModule {
  static forRoot(config: BlobStorageConfig): DynamicModule {
    const signer = new BlobUrlSigner(blobSigningKey(config));
    return {
      module: BlobStorageModule,
      providers: [
        { provide: BlobUrlSigner, useValue: signer },
        { provide: BLOB_STORAGE, useValue: createBlobStorage(config, signer) },
        BlobStorageShutdown,
      ],
      exports: [BlobUrlSigner, BLOB_STORAGE],
    };
  }

  /**
   * BLOB_STORAGE for an app that stores blobs but hands out no URLs (voice's recordings): it needs no
   * signing key, and with the local driver it cannot presign.
   */
  static forWriter(config: BlobStoreConfig): DynamicModule {
    return {
      module: BlobStorageModule,
      providers: [{ provide: BLOB_STORAGE, useValue: createBlobStorage(config, null) }, BlobStorageShutdown],
      exports: [BLOB_STORAGE],
    };
  }
}
