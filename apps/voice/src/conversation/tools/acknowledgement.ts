// What the agent says while a slow tool runs (tool_ack_config).

import type { ToolAckSnapshot } from '@vap/messages';
import { BUILTIN_TOOLS } from './builtin';

const DYNAMIC_ACK_DEFAULT = 'One moment, please.';

/**
 * The acknowledgement for a tool that has run longer than delay_ms, or null when acknowledgements are off.
 * Static mode picks one of the partner's phrases; dynamic mode the tool's own short phrase (its ackPhrase).
 */
export function toolAckPhrase(
  config: ToolAckSnapshot | null,
  tool: string,
  random: () => number = Math.random,
): string | null {
  if (!config || !config.enabled) return null;
  if (config.mode === 'static') {
    if (config.phrases.length === 0) return null;
    return config.phrases[Math.floor(random() * config.phrases.length) % config.phrases.length];
  }
  return BUILTIN_TOOLS.find((t) => t.name === tool)?.ackPhrase ?? DYNAMIC_ACK_DEFAULT;
}
