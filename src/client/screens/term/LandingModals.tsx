import type { PublicBankConfig } from '../../../domain/bank/types';
import { Button, LinkButton } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { formatJapanPeriod } from './formatJapanTime';
import type { LandingModal } from './useLandingChecks';

export interface LandingModalsProps {
  modal: LandingModal | null | undefined;
  bank: PublicBankConfig;
  onClose: () => void;
}

/** The maintenance, browser and notification dialogs of the landing pages. */
export function LandingModals({ modal, bank, onClose }: LandingModalsProps) {
  if (!modal) return null;
  const backToIntroduction = (
    <LinkButton href={bank.links.serviceIntroduction} variant="primary">
      サービス紹介ページへ戻る
    </LinkButton>
  );

  switch (modal.kind) {
    case 'maintenance':
      return (
        <Modal open title="メンテナンス中" tone="warning" actions={backToIntroduction}>
          <p>ただいまシステムメンテナンスのため、本サービスをご利用いただけません。</p>
          <p>ご不便をおかけし申し訳ございません。メンテナンス終了後に改めてお手続きください。</p>
          <dl className="maintenance-period">
            <dt>メンテナンス期間</dt>
            <dd>{formatJapanPeriod(modal.startedAt, modal.endedAt)}</dd>
          </dl>
          <p className="note">※ 作業の状況により、終了時刻が前後する場合がございます。</p>
        </Modal>
      );
    case 'inAppBrowser':
      return (
        <Modal open title="ご注意" tone="warning" actions={backToIntroduction}>
          <p>ご利用中のアプリ内のブラウザでは、本サービスをご利用いただけません。</p>
          <p>
            お手数ですが、iPhoneの方は「Safari」、Androidの方は「Google Chrome」でサービス紹介ページを開き、改めてお手続きください。
          </p>
        </Modal>
      );
    case 'notPhone':
      return (
        <Modal
          open
          title="ご注意"
          tone="warning"
          closable
          onClose={onClose}
          actions={
            <Button variant="secondary" onClick={onClose}>
              閉じる
            </Button>
          }
        >
          <p>本サービスはスマートフォン専用のサービスです。</p>
          <p>パソコンやタブレットでは正しく動作しない場合がございますので、スマートフォンからお手続きください。</p>
        </Modal>
      );
    case 'notifications':
      return (
        <Modal
          open
          title="重要なお知らせ"
          closable
          onClose={onClose}
          actions={
            <Button variant="primary" onClick={onClose}>
              閉じる
            </Button>
          }
        >
          <ul className="notification-list">
            {modal.contents.map((contents, index) => (
              <li key={index} className="notification-list__item">
                {contents}
              </li>
            ))}
          </ul>
        </Modal>
      );
  }
}
