export * from './blob-storage';
export * from './blob-storage.config';
export * from './blob-storage.module';
export * from './signing/blob-url-signer';
export * from './local/local-blob-storage';
export * from './s3/s3-blob-storage';
