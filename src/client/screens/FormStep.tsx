import type { BankLinks } from '../../domain/bank/types';
import { pageAfter } from '../../domain/flow/model';
import { SchemaForm, type FormData } from '../forms/SchemaForm';
import { withBankWords } from '../forms/stepUi';
import { useFormStep } from '../forms/useFormStep';
import { formOf, type ScreenProps } from '../runtime/screen';
import { ExternalLink } from '../ui/ExternalLink';
import { BackButton, useStepPost } from './stepActions';
import { useFailure } from './useFailure';

function isBankLink(links: BankLinks, key: string): key is keyof BankLinks {
  return Object.hasOwn(links, key);
}

/**
 * The generic form step: asks the form meta.form names, from its schema alone (useFormStep).
 * The schema's x-step says where it is posted and what the page says around it; a choice
 * filled from data that offers nothing is replaced by what its x-options.empty says.
 */
export default function FormStep({ flow, page, settings, send }: ScreenProps) {
  const fail = useFailure(flow);
  const applicationType = flow.config.meta.applicationType;
  const { bank } = settings;
  const step = useFormStep(formOf(page), applicationType, bank, fail);
  const { busy, fieldErrors, notice, post } = useStepPost(send, fail);
  const back = <BackButton send={send} disabled={busy} />;

  if (!step) return <p className="loading" role="status">読み込み中です…</p>;

  const { loaded, formProps, answersOf } = step;
  const { empty } = loaded;
  if (empty) {
    const link = empty.link && isBankLink(bank.links, empty.link.bankLink) ? { label: empty.link.label, href: bank.links[empty.link.bankLink] } : null;
    return (
      <section className="stack">
        <p className="alert" role="status">
          {empty.message}
        </p>
        {link && (
          <p>
            <ExternalLink href={link.href}>{link.label}</ExternalLink>
          </p>
        )}
        {back}
      </section>
    );
  }

  const { intro, notes } = loaded.step;
  const note = notes?.[applicationType];
  return (
    <section className="stack">
      {intro && <p>{withBankWords(intro, bank)}</p>}
      {note && <p className="note">{withBankWords(note, bank)}</p>}
      {notice}
      <SchemaForm
        {...formProps}
        submitLabel={pageAfter(flow, page.path, 'NEXT')?.screen === 'Confirmation' ? '入力内容を確認する' : '次へ'}
        busy={busy}
        fieldErrors={fieldErrors}
        onSubmit={(data: FormData) => post(loaded.step.post, answersOf(data))}
      />
      {back}
    </section>
  );
}
