import { NumberDetacher, NumberDetachers } from '../telephony/phone-numbers/number-detachers';
import { CarrierAdapter } from './carrier-adapter';
import { CarrierRegistry } from './carrier-registry';

export function isNumberDetacher(adapter: CarrierAdapter): adapter is CarrierAdapter & NumberDetacher {
  return typeof (adapter as Partial<NumberDetacher>).detachNumber === 'function';
}

/** The adapters that detach numbers, as phone numbers ask for them (NUMBER_DETACHERS). */
export function numberDetachersOf(carriers: CarrierRegistry): NumberDetachers {
  return {
    detacherOf(provider) {
      const adapter = carriers.has(provider) ? carriers.get(provider) : null;
      return adapter && isNumberDetacher(adapter) ? adapter : null;
    },
  };
}
