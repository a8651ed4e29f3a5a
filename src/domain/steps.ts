/**
 * What the page and the server both know of the general steps' forms: the postal candidate
 * and the address fields it fills.
 */

/** One address a 7-digit postal code can stand for (GET /api/addresses, spec section 3). */
export interface AddressCandidate {
  /** 1-based position in the answer for this postal code (for the page's radio buttons). */
  id: number;
  /**
   * `<postal code>-<8 hex digits>`: the digits are a hash of the candidate's fields, so the
   * code names the same place across data updates (an index would shift when Japan Post adds
   * a town) and a code from before an update that removed the town simply matches nothing.
   * Japan Post's data carries no JIS municipality code to use instead.
   */
  addressCode: string;
  /** prefecture + municipality + section + chome, as printed on the confirmation page. */
  addressFull: string;
  prefecture: string;
  municipality: string;
  /** 町域 (town / area); null where the code covers a whole municipality. */
  section: string | null;
  /** `N丁目` when the data names one (rare: usually the applicant types it); else null. */
  chome: string | null;
  kanaPrefecture: string;
  kanaMunicipality: string;
  kanaSection: string | null;
  kanaChome: string | null;
}

/** The fields the chosen candidate fills (besides postalNumber). */
export const ADDRESS_PART_FIELDS = [
  'addressCode',
  'addressPrefecture',
  'addressMunicipality',
  'addressSection',
  'addressChome',
  'kanaAddressPrefecture',
  'kanaAddressMunicipality',
  'kanaAddressSection',
  'kanaAddressChome',
] as const;

export type AddressPartField = (typeof ADDRESS_PART_FIELDS)[number];

/** The address fields of a candidate; a part the postal data lacks (no 丁目, say) is null. */
export function candidateAddressParts(candidate: AddressCandidate): Record<AddressPartField, string | null> {
  return {
    addressCode: candidate.addressCode,
    addressPrefecture: candidate.prefecture,
    addressMunicipality: candidate.municipality,
    addressSection: candidate.section,
    addressChome: candidate.chome,
    kanaAddressPrefecture: candidate.kanaPrefecture,
    kanaAddressMunicipality: candidate.kanaMunicipality,
    kanaAddressSection: candidate.kanaSection,
    kanaAddressChome: candidate.kanaChome,
  };
}
