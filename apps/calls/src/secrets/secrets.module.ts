import { Global, Module } from '@nestjs/common';
import { TelephonyConfig } from '../config/telephony.config';
import { SecretBox } from '@vap/secrets';

/** The secret box, keyed by the telephony config's SECRETS_KEY (validated at boot with every setting). */
@Global()
@Module({
  providers: [
    {
      provide: SecretBox,
      useFactory: (config: TelephonyConfig) => new SecretBox(config.SECRETS_KEY),
      inject: [TelephonyConfig],
    },
  ],
  exports: [SecretBox],
})
export class SecretsModule {}
