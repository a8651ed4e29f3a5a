import type { ClientSettings } from '../../domain/bank/types';

import { PAGE_DATA_IDS } from '../../domain/page-data';

export const CLIENT_SETTINGS_ELEMENT_ID = PAGE_DATA_IDS.settings;

/**
 * The server writes the bank chosen by the host into the page as a JSON data block (a
 * `type="application/json"` script is never executed, so the CSP's ban on inline scripts holds).
 */
export function readClientSettings(doc: Document = document): ClientSettings {
  const element = doc.getElementById(CLIENT_SETTINGS_ELEMENT_ID);
  if (!element?.textContent) throw new Error('client settings are missing from the page');
  return JSON.parse(element.textContent) as ClientSettings;
}
