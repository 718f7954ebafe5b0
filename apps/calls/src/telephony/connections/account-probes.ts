/** What a read of the carrier account gave: the carrier's HTTP status, or no answer at all. */
export type AccountProbeResult = { answered: true; status: number } | { answered: false; message: string };

/** A carrier that can read the partner's account resource with a connection's credentials (no call placed). */
export interface AccountProbe {
  fetchAccount(connectionId: string): Promise<AccountProbeResult>;
}

/** The probe of a provider, null when it has none. The carriers stage provides it; telephony imports no carrier. */
export interface AccountProbes {
  probeOf(provider: string): AccountProbe | null;
}

export const ACCOUNT_PROBES = Symbol('ACCOUNT_PROBES');
