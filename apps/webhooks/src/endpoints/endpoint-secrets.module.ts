import { Module } from '@nestjs/common';
import { EndpointSecrets } from './endpoint-secrets';

@Module({
  providers: [EndpointSecrets],
  exports: [EndpointSecrets],
})
export class EndpointSecretsModule {}
