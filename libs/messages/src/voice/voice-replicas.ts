import { AgentLimits } from '../agents/agent-limits';

/**
 * Voice replicas' proof of life: each running replica puts its id into this JetStream key-value bucket
 * (named after the deployment's subject prefix) every `intervalMs`; the bucket drops what was not put again
 * within `lapseMs`, so a replica that was killed (SIGKILL, OOM, lost node) disappears from it within that
 * time. The calls service ends the live calls of a replica that is not there (voice_replica_lost). Both
 * services open the bucket with these values, so either may create it.
 */
export const VoiceReplicaHeartbeat = {
  bucket: 'voice_replicas',
  intervalMs: 2000,
  /** Five missed beats: a replica busy for a second or two is not taken for dead. */
  lapseMs: 10_000,
} as const;

/**
 * The longest a call may run, in seconds: the agent's max_call_duration_secs is at most this, and a call
 * without a cap is given as long before the stale sweep ends it. A draining voice replica lets its live
 * calls run this long (plus a margin), so rollouts and scale-downs do not cut calls.
 */
export const LONGEST_CALL_SECS = AgentLimits.maxCallDurationMax;
