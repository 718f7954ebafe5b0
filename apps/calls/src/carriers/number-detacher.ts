import { CarrierAdapter } from './carrier-adapter';

/** Adapters whose carrier assigns numbers to applications can detach a number before it is deleted. */
export interface NumberDetacher {
  detachNumber(connectionId: string, number: string, applicationId: string): Promise<void>;
}

export function isNumberDetacher(adapter: CarrierAdapter): adapter is CarrierAdapter & NumberDetacher {
  return typeof (adapter as Partial<NumberDetacher>).detachNumber === 'function';
}
