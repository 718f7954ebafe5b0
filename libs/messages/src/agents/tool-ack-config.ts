export const TOOL_ACK_MODES = ['dynamic', 'static'] as const;
export type ToolAckMode = (typeof TOOL_ACK_MODES)[number];

export const ToolAckDefaults = { enabled: true, mode: 'dynamic' as ToolAckMode, delayMs: 1000 } as const;

/** What the agent says while a tool runs, as the API answers it and the agents service stores it. */
export interface ToolAckConfig {
  enabled: boolean;
  mode: ToolAckMode;
  phrases: string[];
  delay_ms: number;
}

/** The tool acknowledgements as a call's agent snapshot carries them to the voice service: camelCase. */
export interface ToolAckSnapshot {
  enabled: boolean;
  mode: ToolAckMode;
  phrases: string[];
  delayMs: number;
}

export function toolAckSnapshotOf(config: ToolAckConfig): ToolAckSnapshot {
  return { enabled: config.enabled, mode: config.mode, phrases: config.phrases, delayMs: config.delay_ms };
}
