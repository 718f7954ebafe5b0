import { Module } from '@nestjs/common';
import { TelephonyConnectionsController } from './telephony-connections.controller';
import { TelephonyController } from './telephony.controller';

@Module({ controllers: [TelephonyController, TelephonyConnectionsController] })
export class TelephonyModule {}
