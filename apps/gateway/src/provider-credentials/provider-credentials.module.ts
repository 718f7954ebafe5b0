import { Module } from '@nestjs/common';
import { ProviderCredentialsController } from './provider-credentials.controller';

@Module({ controllers: [ProviderCredentialsController] })
export class ProviderCredentialsModule {}
