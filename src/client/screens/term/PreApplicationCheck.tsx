import { useState } from 'react';
import type { PublicBankConfig } from '../../../domain/bank/types';
import { ExternalLink } from '../../ui/ExternalLink';
import { YesNoQuestion, type YesNo } from '../../ui/YesNoQuestion';
import { Acknowledgement } from './Acknowledgement';
import { BlockingMessage } from './BlockingMessage';
import { RegulationDocuments } from './RegulationDocuments';
import { termTexts as t } from './texts';
import { useFocusOnReveal } from './useFocusOnReveal';
import { ProceedActions } from './ProceedActions';

export interface PreCheckAnswers {
  firstAccount?: YesNo;
  identityDocument?: YesNo;
  adult?: YesNo;
  eligibility?: YesNo;
  regulations?: YesNo;
  myNumber?: YesNo;
  passbookless: boolean;
  sealless: boolean;
}

/** The five gates, in order: a 'no' at any of them blocks and hides everything after it. */
const GATES = ['firstAccount', 'identityDocument', 'adult', 'eligibility', 'regulations'] as const;
type Gate = (typeof GATES)[number];

export interface PreCheckProgress {
  /** How many of the eight items are shown (1 to 8). */
  visible: number;
  /** The gate answered 'no' that blocks the rest, if any. */
  blockedAt: Gate | undefined;
  /** Everything positive and both acknowledgements ticked. */
  complete: boolean;
}

/** Pure: which items are revealed, what blocks, whether the applicant may go on. */
export function preCheckProgress(answers: PreCheckAnswers): PreCheckProgress {
  let visible = 1;
  for (const gate of GATES) {
    const answer = answers[gate];
    if (answer === 'no') return { visible, blockedAt: gate, complete: false };
    if (answer !== 'yes') return { visible, blockedAt: undefined, complete: false };
    visible += 1; // the next gate, or the My Number question after the last gate
  }
  // visible = 6: the My Number question. Either choice is fine, but a choice is needed.
  if (answers.myNumber === undefined) return { visible, blockedAt: undefined, complete: false };
  visible += 1; // passbook acknowledgement
  if (!answers.passbookless) return { visible, blockedAt: undefined, complete: false };
  visible += 1; // seal acknowledgement
  return { visible, blockedAt: undefined, complete: answers.sealless };
}

export interface PreApplicationCheckProps {
  bank: PublicBankConfig;
  onNext: () => void;
}

/**
 * The eight items of the general pre-application check (spec section 2), revealed one after
 * another. A newly revealed item is scrolled into view and receives focus, so that screen
 * readers announce its question.
 */
export function PreApplicationCheck({ bank, onNext }: PreApplicationCheckProps) {
  const [answers, setAnswers] = useState<PreCheckAnswers>({ passbookless: false, sealless: false });
  const { visible, blockedAt, complete } = preCheckProgress(answers);
  const itemRef = useFocusOnReveal(visible);

  const set = <K extends keyof PreCheckAnswers>(key: K) => (value: PreCheckAnswers[K]) =>
    setAnswers((previous) => ({ ...previous, [key]: value }));
  const branchSearch = { href: bank.links.branchSearch, label: t.branchReservation };

  return (
    <section className="pre-check" aria-labelledby="pre-check-heading">
      <h2 id="pre-check-heading" className="section-title">
        お申込み前の確認事項
      </h2>
      <p>{t.introNext}</p>

      <YesNoQuestion ref={itemRef(0)} number={1} legend={t.firstAccount(bank.NAME)} value={answers.firstAccount} onChange={set('firstAccount')} />
      {blockedAt === 'firstAccount' && <BlockingMessage branchSearch={branchSearch}>{t.firstAccountNo(bank.NAME)}</BlockingMessage>}

      {visible >= 2 && (
        <YesNoQuestion ref={itemRef(1)} number={2} legend={t.identityDocument} value={answers.identityDocument} onChange={set('identityDocument')}>
          <ul className="bullet-list">
            {t.identityDocuments.map((document) => (
              <li key={document}>{document}</li>
            ))}
          </ul>
        </YesNoQuestion>
      )}
      {blockedAt === 'identityDocument' && <BlockingMessage branchSearch={branchSearch}>{t.identityDocumentNo}</BlockingMessage>}

      {visible >= 3 && <YesNoQuestion ref={itemRef(2)} number={3} legend={t.adult} value={answers.adult} onChange={set('adult')} />}
      {blockedAt === 'adult' && <BlockingMessage>{t.adultNo}</BlockingMessage>}

      {visible >= 4 && (
        <YesNoQuestion ref={itemRef(3)} number={4} legend={t.eligibility} value={answers.eligibility} onChange={set('eligibility')}>
          <ul className="bullet-list">
            {t.eligibilityConditions.map((condition) => (
              <li key={condition}>{condition}</li>
            ))}
          </ul>
          <p>
            <ExternalLink href={bank.links.foreignPepGuide}>外国PEPsについて</ExternalLink>
          </p>
        </YesNoQuestion>
      )}
      {blockedAt === 'eligibility' && <BlockingMessage>{t.eligibilityNo}</BlockingMessage>}

      {visible >= 5 && (
        <YesNoQuestion
          ref={itemRef(4)}
          number={5}
          legend={t.regulations}
          value={answers.regulations}
          onChange={set('regulations')}
          yesLabel="同意する"
          noLabel="同意しない"
        >
          <p>{t.regulationsLead}</p>
          <RegulationDocuments links={bank.links} />
        </YesNoQuestion>
      )}
      {blockedAt === 'regulations' && <BlockingMessage>{t.regulationsNo}</BlockingMessage>}

      {visible >= 6 && (
        <YesNoQuestion
          ref={itemRef(5)}
          number={6}
          legend={t.myNumber}
          value={answers.myNumber}
          onChange={set('myNumber')}
          yesLabel={t.myNumberYes}
          noLabel={t.myNumberNo}
          layout="column"
        >
          <p>{t.myNumberLead}</p>
          <p>
            <ExternalLink href={bank.links.myNumberGuide}>マイナンバーのお届けについて</ExternalLink>
          </p>
        </YesNoQuestion>
      )}

      {visible >= 7 && (
        <Acknowledgement
          ref={itemRef(6)}
          number={7}
          title={t.passbookTitle}
          label={t.passbookCheck}
          checked={answers.passbookless}
          onChange={set('passbookless')}
        >
          <p>{t.passbookBody}</p>
        </Acknowledgement>
      )}

      {visible >= 8 && (
        <Acknowledgement
          ref={itemRef(7)}
          number={8}
          title={t.sealTitle}
          label={t.sealCheck}
          checked={answers.sealless}
          onChange={set('sealless')}
        >
          <p>{t.sealBody}</p>
        </Acknowledgement>
      )}

      <ProceedActions ready={complete} hint={blockedAt ? null : t.hint} onNext={onNext} />
    </section>
  );
}
