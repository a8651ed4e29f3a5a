import type { WidgetProps } from '@rjsf/utils';
import { NormalizeOnBlurInput, normalizerOf } from './NormalizedTextWidget';

/**
 * A kana (フリガナ) input. What the applicant types (hiragana, full-width katakana, small
 * kana, spaces) is rewritten by the field's x-normalize (kanaName, kanaAddress) to the
 * half-width katakana the bank stores when they leave the field, never during an IME composition.
 */
export function KanaWidget(props: WidgetProps) {
  return <NormalizeOnBlurInput {...props} normalize={normalizerOf(props.options.normalize, props.schema)} defaultAutoComplete="off" />;
}
