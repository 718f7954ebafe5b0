import { Controller } from '@nestjs/common';
import { CreateDictionaryDto, ListDictionariesQueryDto, UpdateDictionaryDto } from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { DictionariesService } from './dictionaries.service';

/** NATS commands of dictionaries (queue group: agents). */
@Controller()
export class DictionariesHandlers {
  constructor(private readonly dictionaries: DictionariesService) {}

  @Command(Subjects.agents.dictionaryCreate)
  create(@Data() data: CreateDictionaryDto, @PartnerId() partnerId: string) {
    return this.dictionaries.create(partnerId, data);
  }

  @Command(Subjects.agents.dictionaryList)
  list(@Data() query: ListDictionariesQueryDto, @PartnerId() partnerId: string) {
    return this.dictionaries.list(partnerId, query);
  }

  @Command(Subjects.agents.dictionaryGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.dictionaries.get(partnerId, id);
  }

  @Command(Subjects.agents.dictionaryUpdate)
  update(@Data() { id, changes }: UpdateRequest<UpdateDictionaryDto>, @PartnerId() partnerId: string) {
    return this.dictionaries.update(partnerId, id, changes);
  }

  @Command(Subjects.agents.dictionaryDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.dictionaries.remove(partnerId, id);
  }
}
