// Compile-time tests of the typed messages, checked by the repository's type check (never run): every line
// after a @ts-expect-error must fail to compile, or the check fails. Wrong requests, replies and payloads.
import { EntityManager } from 'typeorm';
// A test-only edge, kept out of the project graph so a public DTO change leaves the messaging lib's dependents
// (the voice service) unaffected; the root type check still compiles this against the full command map.
// nx-ignore-next-line
import { AgentDto, CallDto, CreateAgentDto, PartnerDto } from '@vap/api';
import {
  AddressedSubjects,
  ByIdRequest,
  DomainEvent,
  DomainEvents,
  PartnerContext,
  Subjects,
  VoiceSessionEndReply,
} from '@vap/messages';
import { OnDomainEvent } from './inbox/on-domain-event.decorator';
import { OutboxService } from './outbox/outbox.service';
import { AddressedCommandServer } from './rpc/addressed-command.server';
import { Caller, Command, Data, PartnerId } from './rpc/command.decorators';
import { RpcClient } from './rpc/rpc-client.service';

declare const rpc: RpcClient;
declare const addressed: AddressedCommandServer;
declare const outbox: OutboxService;
declare const em: EntityManager;
declare const agent: AgentDto;
declare const partner: PartnerDto;

export async function commandsOnTheClient(): Promise<AgentDto[]> {
  const found: AgentDto = await rpc.request(Subjects.agents.agentGet, 'partner-1', { id: 'a-1' });
  // @ts-expect-error the request of agents.agent.get is { id }
  await rpc.request(Subjects.agents.agentGet, 'partner-1', { agent_id: 'a-1' });
  // @ts-expect-error agents.agent.get answers an AgentDto, not a CallDto
  const wrongReply: CallDto = await rpc.request(Subjects.agents.agentGet, 'partner-1', { id: 'a-1' });
  // @ts-expect-error no such command
  await rpc.request('agents.agent.explode', null, {});
  return [found, wrongReply as unknown as AgentDto];
}

export async function addressedCommands(): Promise<VoiceSessionEndReply> {
  const data = { callId: 'c-1', reason: 'insufficient_balance' };
  const reply = await rpc.request(AddressedSubjects.voice.sessionEnd, 'p-1', data, { address: 'c-1' });
  addressed.serve(AddressedSubjects.voice.sessionEnd, 'c-1', () => ({ accepted: true }));
  // @ts-expect-error voice.session.end answers { accepted }
  addressed.serve(AddressedSubjects.voice.sessionEnd, 'c-1', () => ({ ok: true }));
  // @ts-expect-error only addressed commands are served by address
  addressed.serve(Subjects.agents.agentGet, 'c-1', () => agent);
  return reply;
}

export async function eventsInTheOutbox(): Promise<void> {
  await outbox.record(em, DomainEvents.partnerUpdated, partner.id, partner);
  // @ts-expect-error events.partner.updated carries a PartnerDto
  await outbox.record(em, DomainEvents.partnerUpdated, partner.id, agent);
  // @ts-expect-error a payload missing fields of AgentDeletedEvent
  await outbox.record(em, DomainEvents.agentDeleted, partner.id, { agent_id: 'a-1' });
}

export class CommandHandlers {
  @Command(Subjects.agents.agentGet)
  get(@Data() _data: ByIdRequest, @PartnerId() _partnerId: string): Promise<AgentDto> {
    return Promise.resolve(agent);
  }

  @Command(Subjects.agents.agentCreate)
  create(@Data() _data: CreateAgentDto, @Caller() _partner: PartnerContext): AgentDto {
    return agent;
  }

  // @ts-expect-error agents.agent.get answers an AgentDto
  @Command(Subjects.agents.agentGet)
  wrongReply(@PartnerId() _partnerId: string): Promise<CallDto> {
    return Promise.resolve({} as CallDto);
  }

  // @ts-expect-error an addressed command is answered by its holder, never by a queue-group handler
  @Command(AddressedSubjects.voice.sessionEnd)
  addressed(): VoiceSessionEndReply {
    return { accepted: true };
  }

  // @ts-expect-error the data of agents.agent.get is { id }, which has no changes
  @Command(Subjects.agents.agentGet)
  wrongData(@Data() _data: { id: string; changes: object }): Promise<AgentDto> {
    return Promise.resolve(agent);
  }
}

export class EventHandlers {
  @OnDomainEvent(DomainEvents.partnerUpdated)
  async onPartner(_event: DomainEvent<PartnerDto>, _em: EntityManager): Promise<void> {}

  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'any_payload' })
  async onAnything(_event: DomainEvent, _em: EntityManager): Promise<void> {}

  // @ts-expect-error events.partner.updated carries a PartnerDto, not an AgentDto
  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'wrong_payload' })
  async onWrong(_event: DomainEvent<AgentDto>, _em: EntityManager): Promise<void> {}

  // @ts-expect-error a handler may not expect more than the payload has (PartnerDto has no extra field)
  @OnDomainEvent(DomainEvents.partnerUpdated, { consumer: 'narrower' })
  async onNarrower(_event: DomainEvent<PartnerDto & { extra: string }>, _em: EntityManager): Promise<void> {}
}
