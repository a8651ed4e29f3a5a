import type { RegistryWidgetsType } from '@rjsf/utils';
import { BirthdayWidget } from './BirthdayWidget';
import { CheckboxesWidget } from './CheckboxesWidget';
import { CheckboxWidget } from './CheckboxWidget';
import { HiddenWidget } from './HiddenWidget';
import { KanaWidget } from './KanaWidget';
import { PhoneWidget } from './PhoneWidget';
import { PostalAddressWidget } from './PostalAddressWidget';
import { PrefectureSelectWidget } from './PrefectureSelectWidget';
import { RadioCardsWidget } from './RadioCardsWidget';
import { ChoiceCardsWidget } from './ChoiceCardsWidget';
import { ChoiceSelectWidget } from './ChoiceSelectWidget';
import type { WidgetBehaviour } from './behaviour';
import { codeApplyBehaviour, CodeApplyWidget } from './CodeApplyWidget';
import { existingAccountBehaviour, ExistingAccountWidget } from './ExistingAccountWidget';
import { FixedAnswerWidget } from './FixedAnswerWidget';
import { NormalizedTextWidget } from './NormalizedTextWidget';
import { TextareaWidget } from './TextareaWidget';
import { SelectWidget } from './SelectWidget';

/**
 * Our widget registry (rjsf looks widgets up here by name from `ui:widget`). Text inputs go
 * through our BaseInputTemplate; the Japanese widgets of the personal and workplace forms
 * (birthday selects, three-part phone, postal code search, kana fields) are added here.
 */
export const widgets: RegistryWidgetsType = {
  BirthdayWidget,
  PhoneWidget,
  RadioCardsWidget,
  CheckboxesWidget,
  KanaWidget,
  PostalAddressWidget,
  PrefectureSelectWidget,
  ChoiceCardsWidget,
  ChoiceSelectWidget,
  CodeApplyWidget,
  ExistingAccountWidget,
  FixedAnswerWidget,
  NormalizedTextWidget,
  // rjsf's own names: every boolean field, every ui:widget 'hidden' and 'textarea', every
  // select of a schema's listed options and every 'radio' use ours (rjsf's own set no
  // aria-invalid).
  CheckboxWidget,
  SelectWidget,
  RadioWidget: RadioCardsWidget,
  HiddenWidget,
  TextareaWidget,
};

/**
 * The widgets that keep state beside their answer (forms/pageState.ts), by the same names: how
 * that state opens and what of it blocks 次へ (useFormStep runs them for the fields asked).
 */
export const widgetBehaviours: Readonly<Record<string, WidgetBehaviour>> = {
  CodeApplyWidget: codeApplyBehaviour,
  ExistingAccountWidget: existingAccountBehaviour,
};
