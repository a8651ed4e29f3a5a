import { useMemo } from 'react';
import type { AddressCandidate } from '../../domain/steps';
import { api, statusOf } from '../api/client';
import type { PostalSearchContext } from './widgets/PostalAddressWidget';

/**
 * The postal code search the PostalAddressWidget asks through formContext (GET /api/addresses):
 * the candidates of a code, null for a code the server refuses (400, said at the field), and
 * any other failure to `fail` (the flow's error page).
 */
export function useAddressSearch(fail: (error?: unknown) => void): PostalSearchContext & Record<string, unknown> {
  return useMemo(
    () => ({
      searchAddresses: async (postalNumber: string): Promise<AddressCandidate[] | null> => {
        try {
          const { addressList } = await api<{ addressList: AddressCandidate[] }>('/addresses', { query: { postalNumber } });
          return addressList;
        } catch (error) {
          if (statusOf(error) === 400) return null;
          fail(error);
          throw error;
        }
      },
    }),
    [fail],
  );
}
