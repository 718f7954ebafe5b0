export const TOOL_ACK_MODES = ['dynamic', 'static'] as const;
export type ToolAckMode = (typeof TOOL_ACK_MODES)[number];

export const ToolAckDefaults = { enabled: true, mode: 'dynamic' as ToolAckMode, delayMs: 1000 } as const;

/** What the agent says while a tool runs, as a call's agent settings carry it to the voice service. */
export interface ToolAckConfig {
  enabled: boolean;
  mode: ToolAckMode;
  phrases: string[];
  delay_ms: number;
}
