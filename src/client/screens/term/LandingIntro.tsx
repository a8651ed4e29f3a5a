import type { PublicBankConfig } from '../../../domain/bank/types';
import type { Checklist } from '../../../domain/checklist';
import { ChecklistBlocks } from './Checklist';

/** The top of a landing page: the bank's image and the service's introduction of its checklist file. */
export function LandingIntro({ checklist, bank }: { checklist: Checklist; bank: PublicBankConfig }) {
  return (
    <>
      <img className="hero-image" src="/bank/top" alt={`${bank.NAME} スマホで口座開設`} width={1200} height={500} />
      {checklist.intro && (
        <section className="intro" aria-label="サービスのご案内">
          <ChecklistBlocks blocks={checklist.intro} bank={bank} />
        </section>
      )}
    </>
  );
}
