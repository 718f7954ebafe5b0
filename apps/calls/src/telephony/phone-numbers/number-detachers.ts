/** A carrier that assigns numbers to applications: it can detach a number before the number is deleted. */
export interface NumberDetacher {
  detachNumber(connectionId: string, number: string, applicationId: string): Promise<void>;
}

/**
 * What phone numbers need of the carriers: the detacher of a provider, or null when its carrier assigns
 * numbers to no application (or is unknown). The carriers stage provides it; telephony imports no carrier.
 */
export interface NumberDetachers {
  detacherOf(provider: string): NumberDetacher | null;
}

export const NUMBER_DETACHERS = Symbol('NUMBER_DETACHERS');
