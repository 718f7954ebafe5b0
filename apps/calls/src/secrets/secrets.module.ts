import { Global, Module } from '@nestjs/common';
import { loadConfigOrExit } from '@vap/runtime';
import { TelephonyConfig } from '../config/telephony.config';
import { SecretBox } from '@vap/secrets';

/** The telephony config (checked when the module is created, i.e. at boot) and the secret box it keys. */
@Global()
@Module({
  providers: [
    { provide: TelephonyConfig, useFactory: () => loadConfigOrExit('calls', TelephonyConfig) },
    {
      provide: SecretBox,
      useFactory: (config: TelephonyConfig) => new SecretBox(config.SECRETS_KEY),
      inject: [TelephonyConfig],
    },
  ],
  exports: [TelephonyConfig, SecretBox],
})
export class SecretsModule {}
