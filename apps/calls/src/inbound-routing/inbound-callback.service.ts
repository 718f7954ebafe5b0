import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AgentDto, AppError, CarrierCallbackIngest, CarrierCallbackReply, Subjects } from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { CarrierRegistry } from '../carriers/carrier-registry';
import { Connection } from '../connections/entities/connection.entity';
import { isInboundCallParser } from './inbound-call-parser';
import { InboundRouterService } from './inbound-router.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A carrier's webhook for a call the platform did not place: the URL names the partner's connection, the
 * adapter verifies the signature with its credentials (403, nothing stored), the call is routed, and the
 * carrier gets the markup that carries out the decision.
 */
@Injectable()
export class InboundCallbackService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly carriers: CarrierRegistry,
    private readonly router: InboundRouterService,
    private readonly rpc: RpcClient,
  ) {}

  async ingest(input: CarrierCallbackIngest): Promise<CarrierCallbackReply> {
    const adapter = this.carriers.get(input.provider);
    const connectionId = input.callId;
    const connection = UUID.test(connectionId)
      ? await this.dataSource.getRepository(Connection).findOne({ where: { id: connectionId } })
      : null;
    if (!connection || connection.provider !== input.provider || !isInboundCallParser(adapter)) {
      throw AppError.notFound('Connection');
    }
    const announced = await adapter.parseInboundCall(
      {
        provider: input.provider,
        method: input.method,
        url: input.url,
        path: input.path,
        headers: input.headers,
        rawBody: Buffer.from(input.rawBodyBase64, 'base64'),
        params: { callId: input.callId, event: input.event },
      },
      { id: connection.id, partnerId: connection.partnerId, provider: adapter.provider },
    );
    if (announced.direction !== 'inbound') {
      throw AppError.validation([{ field: 'Direction', message: 'this URL takes inbound calls only' }]);
    }
    const decision = await this.router.route({
      partnerId: connection.partnerId,
      provider: input.provider,
      providerCallId: announced.providerCallId,
      fromNumber: announced.fromNumber,
      toNumber: announced.toNumber,
    });
    return adapter.inboundReply(
      decision,
      decision.agent_id ? await this.greeting(connection.partnerId, decision.agent_id) : null,
    );
  }

  /** The answering agent's intro message; an agent that vanished meanwhile just answers silently. */
  private async greeting(partnerId: string, agentId: string): Promise<string | null> {
    try {
      const agent = await this.rpc.request<AgentDto>(Subjects.agents.agentGet, partnerId, { id: agentId });
      return agent.intro_message ?? null;
    } catch {
      return null;
    }
  }
}
