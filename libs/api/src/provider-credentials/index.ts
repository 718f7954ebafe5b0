export * from './provider-credential.dto';
