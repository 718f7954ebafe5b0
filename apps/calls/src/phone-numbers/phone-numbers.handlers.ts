import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ImportPhoneNumberDto,
  ListPhoneNumbersQueryDto,
  PhoneNumberDeletedDto,
  PhoneNumberDto,
  PhoneNumberListDto,
  RpcRequest,
  Subjects,
  UpdatePhoneNumberDto,
} from '@vap/contracts';
import { partnerOf } from '../telephony/partner-of';
import { PhoneNumbersService } from './phone-numbers.service';

/** NATS commands of phone numbers (queue group: calls). */
@Controller()
export class PhoneNumbersHandlers {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @MessagePattern(Subjects.calls.phoneNumberImport)
  import(@Payload() req: RpcRequest<ImportPhoneNumberDto>): Promise<PhoneNumberDto> {
    return this.numbers.import(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.phoneNumberList)
  list(@Payload() req: RpcRequest<ListPhoneNumbersQueryDto>): Promise<PhoneNumberListDto> {
    return this.numbers.list(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.phoneNumberGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<PhoneNumberDto> {
    return this.numbers.get(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.calls.phoneNumberUpdate)
  update(@Payload() req: RpcRequest<{ id: string; changes: UpdatePhoneNumberDto }>): Promise<PhoneNumberDto> {
    return this.numbers.update(partnerOf(req), req.data.id, req.data.changes);
  }

  @MessagePattern(Subjects.calls.phoneNumberDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<PhoneNumberDeletedDto> {
    return this.numbers.remove(partnerOf(req), req.data.id);
  }
}
