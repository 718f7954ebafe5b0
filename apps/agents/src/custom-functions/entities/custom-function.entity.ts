import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import type { CustomFunctionAuthDto as CustomFunctionAuth, CustomFunctionMethod } from '@vap/api';
import type { CustomFunctionSpeech } from '@vap/messages';

/** A partner's HTTP function the model may call during a call, attachable to any of the account's agents. */
@Entity({ name: 'custom_functions' })
export class CustomFunction extends Timestamped {
  /** `fn_` + UUID. */
  @PrimaryColumn('text')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  /** Kept as written (json, not jsonb): its keys stay in the partner's order. */
  @Column('json')
  parameters: Record<string, unknown>;

  @Column('text')
  url: string;

  @Column('text')
  method: CustomFunctionMethod;

  /** The static headers' names, in clear: what reads show (values masked) without opening the sealed map. */
  @Column({ name: 'header_names', type: 'jsonb' })
  headerNames: string[];

  /** The static headers (name -> value) as JSON, sealed; null when there are none. */
  @Column({ name: 'headers_sealed', type: 'text', nullable: true })
  headersSealed: string | null;

  @Column({ name: 'signing_secret_sealed', type: 'text' })
  signingSecretSealed: string;

  @Column({ name: 'timeout_ms', type: 'int' })
  timeoutMs: number;

  @Column('jsonb')
  speech: CustomFunctionSpeech;

  @Column({ name: 'response_variables', type: 'jsonb' })
  responseVariables: Record<string, string>;

  @Column('boolean')
  async: boolean;

  /** How the request authenticates beyond its static headers (a customer's connection); null: not at all. */
  @Column({ type: 'jsonb', nullable: true })
  auth: CustomFunctionAuth | null;

  /** Bumped by every change: what the invoker's cache of prepared functions is keyed by. */
  @Column('int')
  version: number;
}
