export type Requirement = 'required' | 'either' | 'optional';

const LABELS: Record<Requirement, string> = {
  required: '必須',
  either: 'いずれか必須',
  optional: '任意',
};

/** The 必須 / いずれか必須 / 任意 mark next to a label or legend. */
export function RequirementBadge({ kind }: { kind: Requirement }) {
  return <span className={`badge badge--${kind}`}>{LABELS[kind]}</span>;
}

/** Hint next to a group that accepts several choices. */
export function MultiSelectHint() {
  return <span className="hint hint--multi">複数選択可</span>;
}
