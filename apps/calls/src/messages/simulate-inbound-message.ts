import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MessageDto, SandboxInboundMessageDto } from '@vap/api';
import { AppError } from '@vap/messages';
import { CallbackUrls } from '../carriers/callback-urls';
import { SandboxLineCarrier } from '../carriers/sandbox-line.carrier';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';
import { MessageCallbacksService } from './message-callbacks.service';
import { toMessageDto } from './message-dto';

/**
 * POST /sandbox/inbound-messages: the sandbox carrier is asked to deliver an SMS to one of the account's
 * numbers, and its signed inbound webhook reaches the platform like any carrier's (verified, recorded,
 * message.received). The answer is the message that webhook recorded.
 */
@Injectable()
export class SimulateInboundMessage {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
    private readonly carrier: SandboxLineCarrier,
    private readonly urls: CallbackUrls,
    private readonly callbacks: MessageCallbacksService,
  ) {}

  async execute(partnerId: string, input: SandboxInboundMessageDto): Promise<MessageDto> {
    await this.lines.ensureSandbox(partnerId);
    // The account's own number only (404 otherwise), before the simulator is asked for anything.
    const number = await this.dataSource
      .getRepository(PhoneNumber)
      .findOneBy({ partnerId, number: input.to });
    if (!number) throw AppError.notFound('Phone number');
    const connection = await this.dataSource
      .getRepository(Connection)
      .findOneOrFail({ where: { partnerId, provider: this.carrier.provider } });
    const sid = await this.carrier.startInboundMessage({
      from: input.from,
      to: input.to,
      body: input.body,
      smsUrl: this.urls.inboundSms(connection.provider, connection.id),
    });
    const message = await this.callbacks.findInbound(partnerId, connection.provider, sid);
    if (!message) throw AppError.downstream('The sandbox carrier did not deliver the message');
    return toMessageDto(message);
  }
}
