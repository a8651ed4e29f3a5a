import type { RegistryWidgetsType } from '@rjsf/utils';
import { BirthdayWidget } from './BirthdayWidget';
import { CheckboxesWidget } from './CheckboxesWidget';
import { CheckboxWidget } from './CheckboxWidget';
import { HiddenWidget } from './HiddenWidget';
import { KanaWidget } from './KanaWidget';
import { phoneBehaviour, PhoneWidget } from './PhoneWidget';
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
 * What some widgets do besides drawing, by the same names: how their state beside the answer
 * opens (forms/pageState.ts), what of it blocks 次へ (useFormStep runs them for the fields
 * asked), and what stored answer they cannot show.
 */
export const widgetBehaviours: Readonly<Record<string, WidgetBehaviour>> = {
  CodeApplyWidget: codeApplyBehaviour,
  ExistingAccountWidget: existingAccountBehaviour,
  PhoneWidget: phoneBehaviour,
};
