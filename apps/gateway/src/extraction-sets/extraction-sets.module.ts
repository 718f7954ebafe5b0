import { Module } from '@nestjs/common';
import { ExtractionSetsController } from './extraction-sets.controller';

@Module({ controllers: [ExtractionSetsController] })
export class ExtractionSetsModule {}
