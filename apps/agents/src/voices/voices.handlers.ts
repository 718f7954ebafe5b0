import { Controller } from '@nestjs/common';
import { PartnerContext, Subjects } from '@vap/messages';
import { Caller, Command } from '@vap/messaging';
import { voiceTierOf } from '../common/caller';
import { VoicesService } from './voices.service';

@Controller()
export class VoicesHandlers {
  constructor(private readonly voices: VoicesService) {}

  @Command(Subjects.agents.voiceConfigurationList)
  voiceConfigurations(@Caller({ optional: true }) partner?: PartnerContext) {
    return this.voices.voiceConfigurations(voiceTierOf(partner));
  }

  @Command(Subjects.agents.agentVoiceList)
  agentVoices(@Caller({ optional: true }) partner?: PartnerContext) {
    return this.voices.agentVoices(voiceTierOf(partner));
  }

  @Command(Subjects.agents.backgroundAudioList)
  backgroundAudio() {
    return this.voices.backgroundAudio();
  }
}
