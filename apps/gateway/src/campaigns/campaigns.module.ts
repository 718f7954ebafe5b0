import { Module } from '@nestjs/common';
import { CampaignsController } from './campaigns.controller';
import { ContactsUploader } from './contacts-upload';

@Module({ controllers: [CampaignsController], providers: [ContactsUploader] })
export class CampaignsModule {}
