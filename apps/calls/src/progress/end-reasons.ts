/** end_call_reason of calls the platform ends itself (besides the voice pipeline's own reasons). */
export const EndReasons = {
  /** The partner's balance could not cover the calls in progress (BalanceGuard). */
  insufficientBalance: 'insufficient_balance',
  /** The process running the call stopped (crash, kill, lost host) before the call ended (OrphanedCallReaper). */
  platformInterrupted: 'platform_interrupted',
  /** The voice replica carrying the call's media stopped beating (killed, lost host) (LostVoiceReplicaReaper). */
  voiceReplicaLost: 'voice_replica_lost',
  /** The carrier reported no final status in time (StaleCallSweeper): the reason of the carrier hang-up. */
  staleCall: 'stale_call_timeout',
  /**
   * The carrier no longer knows a live call (404 on its call resource, e.g. after a carrier restart) and
   * sent no final status (CarrierSilenceCheck).
   */
  carrierCallLost: 'carrier_call_lost',
  /**
   * The call was admitted but its placement never completed: it was never handed to the carrier (the start
   * failed after the admission), or the carrier has no call of it (PlacementRecovery).
   */
  placementInterrupted: 'placement_interrupted',
  /** A browser session was not connected before its access token lapsed (BrowserSessionExpiry). */
  browserSessionExpired: 'browser_session_expired',
  /** The partner's pre-call hook refused the call, or failed under failure_action block (PreCallHookRunner). */
  preCallHookBlocked: 'pre_call_hook_blocked',
} as const;
