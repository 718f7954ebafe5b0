import { AppError } from '@vap/messages';
import { AccountProbes } from '../telephony/connections/account-probes';
import { CarrierRegistry } from './carrier-registry';
import { FormCallbackCarrier } from './form-callback-carrier';

/**
 * The REST carriers' account reads, as connection tests ask for them (ACCOUNT_PROBES). No answer (down,
 * slow, or the platform has no base URL for the carrier: a 502 AppError) is a result, not an error.
 */
export function accountProbesOf(carriers: CarrierRegistry): AccountProbes {
  return {
    probeOf(provider) {
      const adapter = carriers.has(provider) ? carriers.get(provider) : null;
      if (!(adapter instanceof FormCallbackCarrier)) return null;
      return {
        async fetchAccount(connectionId) {
          try {
            const res = await adapter.fetchAccount(connectionId);
            return { answered: true, status: res.status };
          } catch (err) {
            if (err instanceof AppError && err.status === 502)
              return { answered: false, message: err.message };
            throw err;
          }
        },
      };
    },
  };
}
