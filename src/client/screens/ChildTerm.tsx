import { useState } from 'react';
import { pageAfter } from '../../domain/flow/model';
import { messages } from '../../domain/messages';
import type { ScreenProps } from '../runtime/screen';
import { ExternalLink } from '../ui/ExternalLink';
import { YesNoQuestion, type YesNo } from '../ui/YesNoQuestion';
import { Acknowledgement } from './term/Acknowledgement';
import { BlockingMessage } from './term/BlockingMessage';
import { RegulationDocuments } from './term/RegulationDocuments';
import { PASSBOOK_FEE } from './term/texts';
import { useFocusOnReveal } from './term/useFocusOnReveal';
import { ProceedActions } from './term/ProceedActions';

/** Screen texts of the child term page; the two spec messages come from messages.ts word for word. */
export const childTermTexts = {
  lead: 'お申込みの前に、以下の質問にお答えください。',
  national: '親権者さまとお子さまのいずれも、次のすべてに該当しますか？',
  nationalConditions: [
    '日本国籍をお持ちである',
    '日本国内にお住まいである',
    '納税義務のある国（税務上の居住地）が日本のみである',
    '外国PEPs（外国の重要な公的地位にある方およびそのご家族など）に該当しない',
  ],
  nationalNo: messages.childNotEligible,
  regulations: 'Web口座開設規定に同意しますか？',
  regulationsLead: '下記の規定・説明書をご確認のうえ、内容に同意いただける場合は「同意する」を選択してください。',
  myNumber: 'マイナンバー（個人番号）の取扱いに同意しますか？',
  myNumberLead:
    'お子さまの本人確認のため、お子さまのマイナンバーカード（個人番号カード）を撮影していただきます。撮影された画像に記載された個人番号は、法令で定められた目的以外には利用いたしません。',
  disagreed: messages.regulationsDisagreed,
  agree: '同意する',
  disagree: '同意しない',
  passbookTitle: '通帳の発行について',
  passbookBody: `本口座は通帳を発行しない口座です。口座開設後に通帳の発行をご希望の場合は、通帳発行手数料${PASSBOOK_FEE}が必要です。`,
  passbookCheck: '通帳が発行されないことを確認しました',
  sealTitle: '印鑑の登録について',
  sealBody:
    '本サービスでは、印鑑（お届け印）の登録を行いません。お取引の際は、キャッシュカードと暗証番号などでご本人さまを確認いたします。',
  sealCheck: '印鑑の登録を行わないことを確認しました',
  branchSearch: '店舗・ATM検索（来店予約）',
  hint: 'すべての項目にお答えいただくと、次へ進めます。',
} as const;

const t = childTermTexts;

export interface ChildTermAnswers {
  national?: YesNo;
  regulations?: YesNo;
  myNumber?: YesNo;
  passbookless: boolean;
  sealless: boolean;
}

export interface ChildTermProgress {
  /** Agreements shown (national conditions answered yes). */
  agreements: boolean;
  passbook: boolean;
  seal: boolean;
  complete: boolean;
}

/** Pure: the reveal order of spec section 4 ("Child term"). */
export function childTermProgress(answers: ChildTermAnswers): ChildTermProgress {
  const agreements = answers.national === 'yes';
  const passbook = agreements && answers.regulations === 'yes' && answers.myNumber === 'yes';
  const seal = passbook && answers.passbookless;
  return { agreements, passbook, seal, complete: seal && answers.sealless };
}

/**
 * /child/term: the national conditions first; a 'no' says the service is unavailable and hides
 * the rest. Then the regulation and My Number agreements, the passbook-less and the seal-less
 * confirmations, each revealed by the previous answer. "次へ" sends NEXT (→ /child/verification).
 */
export default function ChildTerm({ settings, flow, page, send }: ScreenProps) {
  const { bank } = settings;
  const [answers, setAnswers] = useState<ChildTermAnswers>({ passbookless: false, sealless: false });
  const progress = childTermProgress(answers);

  // Sections in reveal order: national conditions, agreements, passbook, seal.
  const sectionRef = useFocusOnReveal(progress.seal ? 4 : progress.passbook ? 3 : progress.agreements ? 2 : 1);

  const set = <K extends keyof ChildTermAnswers>(key: K) => (value: ChildTermAnswers[K]) =>
    setAnswers((previous) => ({ ...previous, [key]: value }));
  const disagreed = answers.regulations === 'no' || answers.myNumber === 'no';

  return (
    <section className="pre-check child-term" aria-labelledby="child-term-heading">
      <h2 id="child-term-heading" className="section-title">
        お申込み前の確認事項
      </h2>
      <p>{t.lead}</p>

      <YesNoQuestion number={1} legend={t.national} value={answers.national} onChange={set('national')}>
        <ul className="bullet-list">
          {t.nationalConditions.map((condition) => (
            <li key={condition}>{condition}</li>
          ))}
        </ul>
        <p>
          <ExternalLink href={bank.links.foreignPepGuide}>外国PEPsについて</ExternalLink>
        </p>
      </YesNoQuestion>
      {answers.national === 'no' && (
        <BlockingMessage branchSearch={{ href: bank.links.branchSearch, label: t.branchSearch }}>{t.nationalNo}</BlockingMessage>
      )}

      {progress.agreements && (
        <>
          <YesNoQuestion
            ref={sectionRef(1)}
            number={2}
            legend={t.regulations}
            value={answers.regulations}
            onChange={set('regulations')}
            yesLabel={t.agree}
            noLabel={t.disagree}
          >
            <p>{t.regulationsLead}</p>
            <RegulationDocuments links={bank.links} />
          </YesNoQuestion>
          <YesNoQuestion
            number={3}
            legend={t.myNumber}
            value={answers.myNumber}
            onChange={set('myNumber')}
            yesLabel={t.agree}
            noLabel={t.disagree}
          >
            <p>{t.myNumberLead}</p>
            <p>
              <ExternalLink href={bank.links.myNumberGuide}>マイナンバーについて</ExternalLink>
            </p>
          </YesNoQuestion>
          {disagreed && <BlockingMessage>{t.disagreed}</BlockingMessage>}
        </>
      )}

      {progress.passbook && (
        <Acknowledgement
          ref={sectionRef(2)}
          number={4}
          title={t.passbookTitle}
          label={t.passbookCheck}
          checked={answers.passbookless}
          onChange={set('passbookless')}
        >
          <p>{t.passbookBody}</p>
        </Acknowledgement>
      )}

      {progress.seal && (
        <Acknowledgement ref={sectionRef(3)} number={5} title={t.sealTitle} label={t.sealCheck} checked={answers.sealless} onChange={set('sealless')}>
          <p>{t.sealBody}</p>
        </Acknowledgement>
      )}

      <ProceedActions
        ready={progress.complete}
        hint={answers.national === 'no' || disagreed ? null : t.hint}
        onNext={() => send({ type: 'NEXT' })}
        onBack={pageAfter(flow, page.path, 'BACK') ? () => send({ type: 'BACK' }) : undefined}
      />
    </section>
  );
}
