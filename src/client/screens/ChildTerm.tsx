import { pageAfter } from '../../domain/flow/model';
import type { ScreenProps } from '../runtime/screen';
import { Checklist } from './term/Checklist';
import { childTermChecklist } from './term/checklists';

/**
 * /child/term (checklists/child-term.json): the national conditions first; a 'no' says the
 * service is unavailable and hides the rest. Then the regulation and My Number agreements
 * (shown together), the passbook-less and the seal-less confirmations, each revealed by the
 * previous answer. "次へ" sends NEXT (→ /child/verification).
 */
export default function ChildTerm({ settings, flow, page, send }: ScreenProps) {
  return (
    <Checklist
      checklist={childTermChecklist}
      bank={settings.bank}
      className="child-term"
      onNext={() => send({ type: 'NEXT' })}
      onBack={pageAfter(flow, page.path, 'BACK') ? () => send({ type: 'BACK' }) : undefined}
    />
  );
}
