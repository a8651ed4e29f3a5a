import { useEffect, useMemo, useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { Branch as BankBranch } from '../../domain/masterdata';
import { loadApplication } from '../api/application';
import { api } from '../api/client';
import { SchemaForm, type FormData } from '../forms/SchemaForm';
import { formOf, type ScreenProps } from '../runtime/screen';
import { ExternalLink } from '../ui/ExternalLink';
import { BackButton, useStepPost } from './stepActions';
import { useFailure } from './useFailure';

interface Loaded {
  branches: BankBranch[];
  initialData: FormData;
}

export const NO_BRANCH_TEXT =
  '申し訳ございません。現在、Webでお申込みいただけるお取引店はございません。お手数ですが、お近くの店舗へのご来店をご検討ください。ご来店の際は、来店予約をご利用いただけます。';

/** The child flow's note: without a branch in the home municipality, no web opening. */
export const childBranchText = (bankName: string): string =>
  `お住まいの市区町村に${bankName}の店舗がない場合は、Webでの口座開設はお申込みいただけません。`;

/**
 * /branch: the branch that will hold the account, one of the bank's list, each
 * with its address. The choice made before is shown again. With no branch on offer, an
 * apology and the bank's branch search (visit reservation) instead.
 */
export default function Branch({ flow, page, settings, send }: ScreenProps) {
  const fail = useFailure(flow);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const { busy, fieldErrors, notice, post } = useStepPost(send, fail);

  useEffect(() => {
    let alive = true;
    Promise.all([api<{ branchList: BankBranch[] }>('/branch'), loadApplication()]).then(
      ([{ branchList }, saved]) => {
        if (!alive) return;
        const chosen = branchList.some((branch) => branch.code === saved.branchCode) ? saved.branchCode : undefined;
        setLoaded({ branches: branchList, initialData: chosen ? { branchCode: chosen } : {} });
      },
      (error: unknown) => alive && fail(error),
    );
    return () => {
      alive = false;
    };
  }, [fail]);

  const uiSchema = useMemo<UiSchema<FormData, RJSFSchema>>(
    () => ({
      branchCode: {
        'ui:widget': 'ChoiceCardsWidget',
        'ui:title': 'お取引店',
        'ui:options': {
          group: true,
          choices: (loaded?.branches ?? []).map((branch) => ({ value: branch.code, label: branch.name, description: branch.address })),
        },
      },
    }),
    [loaded],
  );

  const back = <BackButton send={send} disabled={busy} />;

  if (!loaded) return <p className="loading" role="status">読み込み中です…</p>;

  if (loaded.branches.length === 0) {
    return (
      <section className="stack">
        <p className="alert" role="status">
          {NO_BRANCH_TEXT}
        </p>
        <p>
          <ExternalLink href={settings.bank.links.branchSearch}>店舗・ATM検索（来店予約）</ExternalLink>
        </p>
        {back}
      </section>
    );
  }

  const submit = (data: FormData) => post('/applications/branch', { branchCode: data.branchCode });

  return (
    <section className="stack">
      <p>口座を開設するお取引店を1つ選択してください。</p>
      {flow.config.meta.applicationType === 'CHILD' && <p className="note">{childBranchText(settings.bank.NAME)}</p>}
      {notice}
      <SchemaForm
        schemaName={formOf(page)}
        initialData={loaded.initialData}
        uiSchema={uiSchema}
        submitLabel="次へ"
        busy={busy}
        fieldErrors={fieldErrors}
        onSubmit={submit}
      />
      {back}
    </section>
  );
}
