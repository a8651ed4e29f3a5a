import { useEffect, useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { loadApplication } from '../api/application';
import { SchemaForm, type FormData } from '../forms/SchemaForm';
import { pageAfter } from '../../domain/flow/model';
import { formOf, type ScreenProps } from '../runtime/screen';
import { BackButton, useStepPost } from './stepActions';
import { useFailure } from './useFailure';

/** The two answers, worded as the bank's paper forms word them (true = no seal). */
export const SEAL_LESS_LABELS = {
  true: '印鑑を登録しない',
  false: '印鑑を登録する（お届け印の登録手続きは別途郵送でご案内します）',
} as const;

const uiSchema: UiSchema<FormData, RJSFSchema> = {
  sealLess: {
    'ui:widget': 'RadioCardsWidget',
    'ui:title': 'お届け印の登録',
    'ui:enumNames': [SEAL_LESS_LABELS.true, SEAL_LESS_LABELS.false],
    'ui:options': { group: true, columns: 1 },
  },
};

/**
 * /seal-less: whether a seal is registered with the account. By default none is; an applicant
 * who wants one is guided by post. The button says 「入力内容を確認する」 when the flow's next
 * page is the summary, else 「次へ」 (a product owner may reorder the steps).
 */
export default function SealLess({ flow, page, send }: ScreenProps) {
  const fail = useFailure(flow);
  const [initialData, setInitialData] = useState<FormData | null>(null);
  const { busy, fieldErrors, notice, post } = useStepPost(send, fail);

  useEffect(() => {
    let alive = true;
    loadApplication().then(
      (saved) => alive && setInitialData(typeof saved.sealLess === 'boolean' ? { sealLess: saved.sealLess } : {}),
      (error: unknown) => alive && fail(error),
    );
    return () => {
      alive = false;
    };
  }, [fail]);

  if (!initialData) return <p className="loading" role="status">読み込み中です…</p>;

  const submit = (data: FormData) => post('/applications/seal-less', { sealLess: data.sealLess });

  return (
    <section className="stack">
      <p>この口座は、原則として印鑑（お届け印）を登録しない口座です。お届け印の登録をご希望の場合は「印鑑を登録する」を選択してください。</p>
      {notice}
      <SchemaForm
        schemaName={formOf(page)}
        initialData={initialData}
        uiSchema={uiSchema}
        submitLabel={pageAfter(flow, page.path, 'NEXT')?.screen === 'Confirmation' ? '入力内容を確認する' : '次へ'}
        busy={busy}
        fieldErrors={fieldErrors}
        onSubmit={submit}
      />
      <BackButton send={send} disabled={busy} />
    </section>
  );
}
