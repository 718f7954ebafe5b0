import type { ExtractionKey } from './extraction-key';

/** Request of agents.extraction.effective_schema. */
export interface EffectiveSchemaRequest {
  agentId: string;
}

export interface EffectiveExtractionKey extends ExtractionKey {
  /** Where the key is defined: an attached set or the agent's inline config. */
  source: 'set' | 'inline';
  /** The set's id for source 'set', else null. */
  setId: string | null;
}

/**
 * What post-call extraction runs for an agent: the keys of its attached sets (in attach order) then its
 * inline keys. Names are unique: attach, set edits and inline edits refuse a clash.
 */
export interface EffectiveExtractionSchema {
  agentId: string;
  extractionEnabled: boolean;
  keys: EffectiveExtractionKey[];
}
