/**
 * The form lint's rules, in the order they run (as the flow lint's: one module per rule, each
 * with its name, a description and a check; each tested in tests/unit/form-lint-rules/<name>.test.ts).
 * The file rules run on every form file; the form rules only once no file rule found anything,
 * and the catalogue rules then, on the forms together and as the flows ask them.
 */
import type { FormLintRule } from '../rule';
import { askedAndRequired } from './asked-and-required';
import { compiles } from './compiles';
import { conditionFields } from './condition-fields';
import { conditionShape } from './condition-shape';
import { conditionValues } from './condition-values';
import { fileId } from './file-id';
import { flowOverlays } from './flow-overlays';
import { formFormat } from './form-format';
import { formStepScreen } from './form-step-screen';
import { formatVersion } from './format-version';
import { formsAfterOrder } from './forms-after-order';
import { formsBeforePin } from './forms-before-pin';
import { messageKeysRule } from './message-keys';
import { optionFields } from './option-fields';
import { ownMessages } from './own-messages';
import { postPaths } from './post-paths';
import { reminder } from './reminder';
import { summaryRows } from './summary-rows';
import { uiFields } from './ui-fields';
import { uiOrder } from './ui-order';
import { uniqueFieldNames } from './unique-field-names';

export const formLintRules: readonly FormLintRule[] = [
  // The file as written.
  formatVersion,
  formFormat,
  // One form: its names, its conditions, its layout, its summary.
  fileId,
  messageKeysRule,
  ownMessages,
  optionFields,
  conditionShape,
  askedAndRequired,
  uiOrder,
  uiFields,
  summaryRows,
  reminder,
  // The forms together, and in their flows.
  postPaths,
  conditionFields,
  conditionValues,
  flowOverlays,
  formStepScreen,
  formsBeforePin,
  formsAfterOrder,
  uniqueFieldNames,
  // What the server's strict ajv makes of forms otherwise right.
  compiles,
];
