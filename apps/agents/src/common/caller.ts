import { PartnerContext } from '@vap/messages';

/** The caller's voice tier; a command without partner context gets the base tier, never more. */
export function voiceTierOf(partner: PartnerContext | undefined): string {
  return partner?.voiceTier ?? 'standard';
}
