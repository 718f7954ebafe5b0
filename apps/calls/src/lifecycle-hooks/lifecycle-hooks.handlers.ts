import { Controller } from '@nestjs/common';
import { CreateLifecycleHookDto, UpdateLifecycleHookDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { LifecycleHooksService } from './lifecycle-hooks.service';

/** NATS commands of lifecycle hooks (queue group: calls). */
@Controller()
export class LifecycleHooksHandlers {
  constructor(private readonly hooks: LifecycleHooksService) {}

  @Command(Subjects.calls.lifecycleHookCreate)
  create(@Data() data: CreateLifecycleHookDto, @PartnerId() partnerId: string) {
    return this.hooks.create(partnerId, data);
  }

  @Command(Subjects.calls.lifecycleHookList)
  list(@PartnerId() partnerId: string) {
    return this.hooks.list(partnerId);
  }

  @Command(Subjects.calls.lifecycleHookGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.hooks.get(partnerId, id);
  }

  @Command(Subjects.calls.lifecycleHookUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateLifecycleHookDto>, @PartnerId() partnerId: string) {
    return this.hooks.update(partnerId, id, changes);
  }

  @Command(Subjects.calls.lifecycleHookDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.hooks.remove(partnerId, id);
  }

  @Command(Subjects.calls.lifecycleHookRotateSecret)
  rotateSecret(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.hooks.rotateSecret(partnerId, id);
  }
}
