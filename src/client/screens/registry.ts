import { lazy } from 'react';
import type { ScreenRegistry } from '../runtime/screen';

/**
 * One registry of screens, like rjsf's registry of widgets: the flow JSON names a screen and
 * the runtime renders it from here (src/client/main.tsx hands it to FlowRouter). Each screen
 * is its own chunk, so the landing page does not download the form stack.
 */
export const screenRegistry: ScreenRegistry = {
  GeneralTerm: lazy(() => import('./GeneralTerm')),
  Verification: lazy(() => import('./Verification')),
  SystemError: lazy(() => import('./SystemError')),
  Confirmation: lazy(() => import('./Confirmation')),
  Pin: lazy(() => import('./Pin')),
  EkycPreparation: lazy(() => import('./EkycPreparation')),
  EkycCallback: lazy(() => import('./EkycCallback')),
  Supplement: lazy(() => import('./Supplement')),
  SupplementError: lazy(() => import('./SupplementError')),
  Redirect: lazy(() => import('./Redirect')),
  Complete: lazy(() => import('./Complete')),
  EkycError: lazy(() => import('./EkycError')),
  ChildBeforeCheck: lazy(() => import('./ChildBeforeCheck')),
  ChildTerm: lazy(() => import('./ChildTerm')),
  ChildEkycPreparation: lazy(() => import('./ChildEkycPreparation')),
  IdentificationDocuments: lazy(() => import('./IdentificationDocuments')),
  SupplementaryDocuments: lazy(() => import('./SupplementaryDocuments')),
  FormStep: lazy(() => import('./FormStep')),
};
