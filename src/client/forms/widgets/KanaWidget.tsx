import type { WidgetProps } from '@rjsf/utils';
import { normalizeKanaAddress, normalizeKanaName } from '../../../domain/rules';
import { NormalizeOnBlurInput } from './NormalizedTextWidget';

/**
 * A kana (フリガナ) input. What the applicant types (hiragana, full-width katakana, small
 * kana, spaces) is normalised to the half-width katakana the bank stores when they leave the
 * field, never during an IME composition. ui:options.kana: 'name' (default) or 'address'.
 */
export function KanaWidget(props: WidgetProps) {
  const normalize = props.options.kana === 'address' ? normalizeKanaAddress : normalizeKanaName;
  return <NormalizeOnBlurInput {...props} normalize={normalize} defaultAutoComplete="off" />;
}
