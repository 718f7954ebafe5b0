import { Controller } from '@nestjs/common';
import { PartnerContext, Subjects } from '@vap/messages';
import { Caller, Command, PartnerId } from '@vap/messaging';
import { voiceTierOf } from '../common/caller';
import { VoicesService } from './voices.service';

@Controller()
export class VoicesHandlers {
  constructor(private readonly voices: VoicesService) {}

  @Command(Subjects.agents.voiceConfigurationList)
  voiceConfigurations(@PartnerId() partnerId: string, @Caller({ optional: true }) partner?: PartnerContext) {
    return this.voices.voiceConfigurations(partnerId, voiceTierOf(partner));
  }

  @Command(Subjects.agents.agentVoiceList)
  agentVoices(@PartnerId() partnerId: string, @Caller({ optional: true }) partner?: PartnerContext) {
    return this.voices.agentVoices(partnerId, voiceTierOf(partner));
  }

  @Command(Subjects.agents.backgroundAudioList)
  backgroundAudio() {
    return this.voices.backgroundAudio();
  }
}
