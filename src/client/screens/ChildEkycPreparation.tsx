import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';
import '../styles/ekyc-steps.css';

/**
 * /child/ekyc-preparation (6 of 12): what the identity check of a child application asks for —
 * photos of the child's individual number card and of one supplementary document, then the
 * parent's own identity check. 「撮影をはじめる」 → NEXT (the card capture).
 */
export default function ChildEkycPreparation({ send }: ScreenProps) {
  return (
    <section className="stack ekyc-preparation">
      <p>
        お子さまの本人確認のため、お子さまの本人確認書類と補完書類をスマートフォンのカメラで撮影していただきます。その後、親権者さまご本人の本人確認を行います。
      </p>
      <section aria-labelledby="child-ekyc-documents">
        <h2 className="section-title" id="child-ekyc-documents">
          ご用意いただくもの
        </h2>
        <ol className="flow-steps">
          <li>お子さまのマイナンバーカード（個人番号カード）</li>
          <li>
            補完書類（次のいずれか1点）
            <ul className="bullet-list document-list">
              <li>住民票の写し（発行から6か月以内で、本籍・個人番号の記載が省略されているもの）</li>
              <li>母子健康手帳（出生届出済証明の印が押されているもの）</li>
            </ul>
          </li>
          <li>親権者さまのマイナンバーカード（親権者さまの本人確認で使用します）</li>
        </ol>
        <ul className="note-list">
          <li>マイナンバー通知カードはご利用いただけません。</li>
          <li>マイナンバーカードは、ケースから取り出して撮影してください。</li>
        </ul>
      </section>
      <section aria-labelledby="child-ekyc-steps">
        <h2 className="section-title" id="child-ekyc-steps">
          これからの流れ
        </h2>
        <ol className="flow-steps">
          <li>お子さまのマイナンバーカードを撮影します。</li>
          <li>補完書類（住民票の写し、または母子健康手帳）を撮影します。</li>
          <li>親権者さまの本人確認を、本人確認サービス（eKYC）で行います。</li>
        </ol>
      </section>
      <p className="alert alert--warning">
        撮影した書類が不鮮明な場合や、記載内容を確認できない場合は、あらためてお申込みいただくことがあります。
      </p>
      <div className="actions">
        <Button onClick={() => send({ type: 'NEXT' })}>撮影をはじめる</Button>
      </div>
    </section>
  );
}
