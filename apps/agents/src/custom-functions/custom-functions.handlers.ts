import { Controller } from '@nestjs/common';
import {
  CreateCustomFunctionDto,
  CustomFunctionAttachRequest,
  CustomFunctionTestRequest,
  ListCustomFunctionsQueryDto,
  UpdateCustomFunctionDto,
} from '@vap/api';
import { ByIdRequest, CustomFunctionInvokeRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { CustomFunctionRunner } from './custom-function-runner';
import { CustomFunctionsService } from './custom-functions.service';

/** NATS commands of custom functions (queue group: agents). */
@Controller()
export class CustomFunctionsHandlers {
  constructor(
    private readonly functions: CustomFunctionsService,
    private readonly runner: CustomFunctionRunner,
  ) {}

  @Command(Subjects.agents.customFunctionCreate)
  create(@Data() data: CreateCustomFunctionDto, @PartnerId() partnerId: string) {
    return this.functions.create(partnerId, data);
  }

  @Command(Subjects.agents.customFunctionList)
  list(@Data() query: ListCustomFunctionsQueryDto, @PartnerId() partnerId: string) {
    return this.functions.list(partnerId, query);
  }

  @Command(Subjects.agents.customFunctionGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.functions.get(partnerId, id);
  }

  @Command(Subjects.agents.customFunctionUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateCustomFunctionDto>, @PartnerId() partnerId: string) {
    return this.functions.update(partnerId, id, changes);
  }

  @Command(Subjects.agents.customFunctionDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.functions.remove(partnerId, id);
  }

  @Command(Subjects.agents.customFunctionRotateSecret)
  rotateSecret(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.functions.rotateSecret(partnerId, id);
  }

  @Command(Subjects.agents.customFunctionAttach)
  attach(@Data() { agentId, functionId }: CustomFunctionAttachRequest, @PartnerId() partnerId: string) {
    return this.functions.attach(partnerId, agentId, functionId);
  }

  @Command(Subjects.agents.customFunctionDetach)
  detach(@Data() { agentId, functionId }: CustomFunctionAttachRequest, @PartnerId() partnerId: string) {
    return this.functions.detach(partnerId, agentId, functionId);
  }

  @Command(Subjects.agents.customFunctionTest)
  test(@Data() { id, test }: CustomFunctionTestRequest, @PartnerId() partnerId: string) {
    return this.runner.test(partnerId, id, test.arguments, test.customer_id ?? null);
  }

  /** For the voice service, during a call: the partner is named in the request. */
  @Command(Subjects.agents.customFunctionInvoke)
  invoke(@Data() data: CustomFunctionInvokeRequest) {
    return this.runner.invoke(data);
  }

  /** For the calls service when a call starts or is handed to the agent: the agent's snapshot for the call. */
  @Command(Subjects.agents.agentForCall)
  forCall(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.functions.forCall(partnerId, id);
  }

  /** GET /agent/{id}/tools: what a call starting now would offer the model, from what forCall answers. */
  @Command(Subjects.agents.agentTools)
  tools(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.functions.effectiveTools(partnerId, id);
  }
}
