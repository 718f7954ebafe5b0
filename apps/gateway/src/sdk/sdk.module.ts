import { DynamicModule, Module } from '@nestjs/common';
import { isDevelopment } from '@vap/runtime';
import { DemoController } from './demo.controller';
import { SdkController } from './sdk.controller';
import { SdkFiles } from './sdk-files';

/** The browser client's files (/sdk) and, in development only, its demo page (/demo/voice). */
@Module({})
export class SdkModule {
  static forRoot(nodeEnv: string): DynamicModule {
    return {
      module: SdkModule,
      controllers: [SdkController, ...(isDevelopment({ NODE_ENV: nodeEnv }) ? [DemoController] : [])],
      providers: [{ provide: SdkFiles, useValue: new SdkFiles() }],
    };
  }
}
