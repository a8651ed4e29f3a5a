import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { PublicBankConfig } from '../../domain/bank/types';
import { pageAfter } from '../../domain/flow/model';
import type { ScreenProps } from '../runtime/screen';
import { parseLandingParams } from '../platform/landingParams';
import { session } from '../platform/session';
import { ExternalLink } from '../ui/ExternalLink';
import { Acknowledgement } from './term/Acknowledgement';
import { LandingModals } from './term/LandingModals';
import { useLandingChecks } from './term/useLandingChecks';
import { ProceedActions } from './term/ProceedActions';

/** Screen texts of the child before-check (spec section 2, "Child screens"). */
export const childBeforeCheckTexts = {
  intro: (bankName: string) =>
    `${bankName}のお子さま名義の普通預金口座を、親権者さまがスマートフォンからお申込みいただけるサービスです。お申込みの前に、以下の内容を必ずご確認ください。`,
  confirmationsTitle: 'お申込みにあたってのご確認事項',
  proxy: '親権者さま（父または母）が、18歳未満のお子さまの代理人としてお申込みいただくサービスです。',
  area: (bank: PublicBankConfig) =>
    `お子さまが${[bank.homePrefecture, ...bank.neighbouringPrefectures].join('・')}にお住まいの方、またはお住まいの市区町村に${bank.NAME}の店舗がある方がお申込みいただけます。`,
  firstAccount: (bankName: string) => `お子さまが${bankName}で初めて口座を開設される場合に限り、お申込みいただけます。`,
  cardDelivery:
    'キャッシュカードは、お申込みいただいたご住所へ簡易書留（転送不要）で郵送いたします。お手元に届くまで1〜2週間程度かかります。',
  cardUncollected:
    'キャッシュカードをお受け取りいただけなかった場合（保管期間の経過などにより当行へ返送された場合）は、お申込みを自動的に取り消しいたします。',
  refusalNote: '※ 条件を満たしている場合でも、当行の判断により口座開設をお断りする場合がございます。あらかじめご了承ください。',
  branchSearch: '店舗・ATM検索（来店予約）',
  confirmedCheck: '上記の内容を確認しました',

  documentsTitle: 'ご用意いただくもの',
  documentsLead: 'お手続きの途中で、以下の書類をスマートフォンのカメラで撮影していただきます。あらかじめお手元にご用意ください。',
  childCard: 'お子さまのマイナンバーカード（個人番号カード）',
  childCardNote:
    '※ 2024年12月2日以降に1歳未満でお申込みいただいたマイナンバーカードは、顔写真のないカードの場合があります。顔写真のないカードでもお手続きいただけます。',
  supplementary: 'お子さまの補完書類（次のいずれか1点）',
  supplementaryItems: [
    '住民票の写し（発行日から6か月以内のもので、本籍地・個人番号（マイナンバー）の記載を省略したもの）',
    '母子健康手帳（出生届出済証明の押印があるもの）',
  ],
  parentId: '親権者さまの本人確認書類（次のいずれか1点）',
  parentIdItems: ['運転免許証', '運転経歴証明書', 'マイナンバーカード（個人番号カード）', '住民基本台帳カード'],
  documentsCheck: '必要書類を確認しました',

  hint: '2つの確認欄にチェックを入れると、次へ進めます。',
} as const;

const t = childBeforeCheckTexts;

/**
 * /child/before-check: the entry page of the child application. The bank's top image, the
 * landing modals (maintenance → unsupported browser → notifications, shared with /term), the
 * numbered confirmations and the documents to prepare, each confirmed by a checkbox. "次へ"
 * sends NEXT; the flow stores the bank code and moves to /child/term.
 */
export default function ChildBeforeCheck({ settings, flow, page, send }: ScreenProps) {
  const { bank } = settings;
  const { search } = useLocation();
  const errorPath = flow.pageByState.get(flow.config.meta.errorState)?.path ?? '/child/error';
  const [confirmed, setConfirmed] = useState(false);
  const [documentsConfirmed, setDocumentsConfirmed] = useState(false);

  // The flow's entry action has already cleared session storage (the runtime starts the machine
  // before this screen mounts), so what is stored here stays for the application.
  useEffect(() => {
    const params = parseLandingParams(search);
    if (params.invitation !== undefined) session.set('invitation', params.invitation);
    if (params.channel !== undefined) session.set('channel', params.channel);
  }, [search]);

  const { modal, dismiss } = useLandingChecks({ bankCode: bank.code, errorPath });
  const complete = confirmed && documentsConfirmed;

  return (
    <div className="term child-before-check">
      <img className="hero-image" src="/bank/top" alt={`${bank.NAME} スマホで口座開設`} width={1200} height={500} />
      <section className="intro" aria-label="サービスのご案内">
        <p>{t.intro(bank.NAME)}</p>
      </section>
      <LandingModals modal={modal} bank={bank} onClose={dismiss} />

      <Acknowledgement title={t.confirmationsTitle} label={t.confirmedCheck} checked={confirmed} onChange={setConfirmed}>
        <ol className="bullet-list">
          <li>{t.proxy}</li>
          <li>{t.area(bank)}</li>
          <li>{t.firstAccount(bank.NAME)}</li>
          <li>{t.cardDelivery}</li>
          <li>{t.cardUncollected}</li>
        </ol>
        <p className="note">{t.refusalNote}</p>
        <p>
          <ExternalLink href={bank.links.branchSearch}>{t.branchSearch}</ExternalLink>
        </p>
      </Acknowledgement>

      <Acknowledgement title={t.documentsTitle} label={t.documentsCheck} checked={documentsConfirmed} onChange={setDocumentsConfirmed}>
        <p>{t.documentsLead}</p>
        <ol className="bullet-list">
          <li>
            {t.childCard}
            <p className="note">{t.childCardNote}</p>
          </li>
          <li>
            {t.supplementary}
            <ul className="bullet-list">
              {t.supplementaryItems.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </li>
          <li>
            {t.parentId}
            <ul className="bullet-list">
              {t.parentIdItems.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </li>
        </ol>
      </Acknowledgement>

      <ProceedActions
        ready={complete}
        hint={t.hint}
        onNext={() => send({ type: 'NEXT' })}
        onBack={pageAfter(flow, page.path, 'BACK') ? () => send({ type: 'BACK' }) : undefined}
      />
    </div>
  );
}
