import { useRef } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { PublicBankConfig } from '../../domain/bank/types';
import { optionFieldsOf, type FormSchema, type OptionAsker } from '../../domain/forms/format';
import { optionSources } from '../forms/options';
import type { Choice } from '../forms/widgets/choices';
import { loadApplicationWithParent, rememberStepAnswer, type ApplicationsAnswer } from '../api/application';
import { SchemaForm, type FormData } from '../forms/SchemaForm';
import { loadSchema } from '../forms/schemas';
import { formOf, type ScreenProps } from '../runtime/screen';
import { useLoaded } from '../runtime/useLoaded';
import { BackButton } from './stepActions';
import { summaryOf, type SummarySection } from './confirmation/summary';
import { useFailure } from './useFailure';

/** The choices of a form's x-options fields as its page offered them: what the summary names values by, and what its conditions read. */
async function summaryChoicesOf(schema: FormSchema, bank: PublicBankConfig, asker: OptionAsker): Promise<Record<string, Choice[]>> {
  const fields = optionFieldsOf(schema);
  const offered = await Promise.all(fields.map(async ({ options }) => (await optionSources[options.source](bank))(asker)));
  return Object.fromEntries(fields.map(({ field }, index) => [field, offered[index] ?? []]));
}

const uiSchema: UiSchema<FormData, RJSFSchema> = {
  addressConfirmed: { 'ui:title': 'ご住所が本人確認書類の住所と一致していることを確認しました' },
};

/**
 * /confirmation (step 5 of 7): everything entered, read only, as a definition list per
 * section; the applicant confirms that the address is the one on the identity document and
 * applies (→ PIN). Corrections go back step by step with 「戻る」 (the navigation guard lets a
 * page open only from its neighbours).
 */
export default function Confirmation({ flow, page, settings, send }: ScreenProps) {
  const fail = useFailure(flow);
  const ownForm = formOf(page);
  /** What the summary shows: the PIN page checks the PIN against exactly this (its rules read the birthdays and phones). */
  const confirmed = useRef<ApplicationsAnswer | null>(null);
  const { pages } = flow;
  const sections = useLoaded(
    async (): Promise<SummarySection[]> => {
      // The schemas of the forms the flow's pages ask (summary.ts lists those with x-step).
      const names = [...new Set(pages.flatMap((shown) => shown.forms))].filter((form) => form !== ownForm);
      const schemasLoading = Promise.all(names.map(async (form) => [form, (await loadSchema(form)).schema as FormSchema] as const));
      const [{ application, parent, forms, answer }, schemas] = await Promise.all([loadApplicationWithParent(), schemasLoading]);
      confirmed.current = answer;
      const { applicationType } = flow.config.meta;
      const asker = { applicationType, saved: { ...application }, today: new Date() };
      const choices = await Promise.all(schemas.map(async ([form, schema]) => [form, await summaryChoicesOf(schema, settings.bank, asker)] as const));
      return summaryOf(pages, new Map(schemas), {
        flowId: flow.config.id,
        applicationType,
        bank: settings.bank,
        application: { ...application },
        entities: { applicationParent: parent },
        forms: forms ?? {},
        choices: new Map(choices),
      });
    },
    [settings.bank, pages, ownForm, flow.config],
    fail,
  );

  if (!sections) return <p className="loading" role="status">読み込み中です…</p>;

  return (
    <section className="stack">
      <p>お申込み内容をご確認ください。修正する場合は「戻る」で該当の画面までお戻りください。</p>
      {sections.map((section) => (
        <section className="summary" key={section.title} aria-labelledby={`summary-${section.title}`}>
          <h2 className="section-title" id={`summary-${section.title}`}>
            {section.title}
          </h2>
          <dl className="summary__list">
            {section.items.map((entry) => (
              <div className="summary__row" key={entry.term}>
                <dt className="summary__term">{entry.term}</dt>
                {entry.lines.map((line, index) => (
                  <dd className="summary__value" key={index}>
                    {line}
                  </dd>
                ))}
              </div>
            ))}
          </dl>
        </section>
      ))}
      <section className="summary summary--confirm" aria-labelledby="summary-address-check">
        <h2 className="section-title" id="summary-address-check">
          ご住所の確認
        </h2>
        <p>
          ご入力いただいたご住所が、本人確認書類（運転免許証・マイナンバーカードなど）に記載のご住所と一致していることをご確認ください。一致しない場合、お申込みをお受けできないことがあります。
        </p>
        <SchemaForm
          schemaName={formOf(page)}
          uiSchema={uiSchema}
          submitLabel="申し込む"
          onSubmit={() => {
            if (confirmed.current) rememberStepAnswer(confirmed.current);
            send({ type: 'NEXT' });
          }}
        />
      </section>
      <BackButton send={send} />
    </section>
  );
}
