import type { BankLinks } from '../../../domain/bank/types';
import { ExternalLink } from '../../ui/ExternalLink';

/** The documents the applicant agrees to besides the web regulations (spec, "Links shown"). */
const OTHER_DOCUMENTS: ReadonlyArray<{ key: keyof BankLinks; label: string }> = [
  { key: 'personalInformation', label: '個人情報の利用目的' },
  { key: 'antiSocialForces', label: '反社会的勢力ではないことの表明・確約' },
  { key: 'generalAccountRules', label: '総合口座取引規定・普通預金規定' },
  // Differs for bank 0587: the URL comes from each bank's data.
  { key: 'cashCardRules', label: 'キャッシュカード規定・デビットカード取引規定' },
  { key: 'directBankingRules', label: 'ダイレクトバンキングサービス利用規定' },
  { key: 'myBankPlusRules', label: 'My Bank Plus（マイバンクプラス）利用規定' },
  { key: 'unusedAccountFee', label: '未利用口座管理手数料のご案内' },
];

export function RegulationDocuments({ links }: { links: BankLinks }) {
  return (
    <div className="documents">
      <p className="documents__main">
        <ExternalLink href={links.webRegulations}>Web口座開設規定</ExternalLink>
      </p>
      <p className="documents__lead">あわせて、以下の内容もご確認ください。</p>
      <ul className="documents__list">
        {OTHER_DOCUMENTS.map(({ key, label }) => (
          <li key={key}>
            <ExternalLink href={links[key]}>{label}</ExternalLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
