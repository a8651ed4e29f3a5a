/**
 * A landing checklist (/term, /child/before-check, /child/term) as data: checklists/<name>.json,
 * described by checklists/checklist.schema.json and rendered by src/client/screens/term/Checklist.tsx.
 * Pure: no React, DOM or Node.
 */
import type { BankLinks, PublicBankConfig } from './bank/types';
import type { messages } from './messages';

/** Keys of src/domain/messages.ts whose message is a plain text (not a function). */
export type TextMessageKey = { [K in keyof typeof messages]: (typeof messages)[K] extends string ? K : never }[keyof typeof messages];

/** A link to one of the bank's pages: its key in bank.json's `links`, and the text shown. */
export interface ChecklistLink {
  link: keyof BankLinks;
  label: string;
}

/** One entry of a list: a text, optionally with a note below it and a list of its own. */
export type ChecklistListItem = string | { text: string; note?: string; items?: string[] };

/** What explains a question or an acknowledgement, in order. */
export type ChecklistBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'note'; text: string }
  | { kind: 'list'; ordered?: boolean; style?: 'features'; items: ChecklistListItem[] }
  | ({ kind: 'link' } & ChecklistLink)
  /** The web regulations and the other documents the applicant agrees to (RegulationDocuments). */
  | { kind: 'regulationDocuments' };

/** The message shown when a gate is answered 'no': a text of its own or a catalogue message. */
export type ChecklistBlocking = ({ text: string } | { message: TextMessageKey }) & { link?: ChecklistLink };

interface ItemBase {
  /** Unique in the checklist; the answers are stored under it. */
  id: string;
  /** Shown together with the item before it (both are revealed by the same answer). */
  withPrevious?: boolean;
  body?: ChecklistBlock[];
}

interface QuestionFields {
  question: string;
  yesLabel?: string;
  noLabel?: string;
  /** 'column' stacks the two choices (long labels). */
  layout?: 'row' | 'column';
}

/** A yes/no question whose 'no' shows `blocking` and hides everything after it. */
export interface ChecklistGate extends ItemBase, QuestionFields {
  kind: 'gate';
  blocking: ChecklistBlocking;
}

/** A question with two choices, either of them fine; a choice is needed to go on. */
export interface ChecklistChoice extends ItemBase, QuestionFields {
  kind: 'choice';
}

/** A box to tick below a title and an explanation. */
export interface ChecklistAcknowledgement extends ItemBase {
  kind: 'acknowledgement';
  title: string;
  check: string;
}

export type ChecklistItem = ChecklistGate | ChecklistChoice | ChecklistAcknowledgement;

export interface Checklist {
  /** Heading and lead above the items; without a heading the items stand on their own. */
  heading?: string;
  lead?: string;
  /** Show "Q1." … before each item. */
  numbered?: boolean;
  /** Shown under 次へ while something is unanswered and nothing blocks. */
  hint: string;
  items: ChecklistItem[];
  /** The page's introduction of the service, above its notices and the checklist. */
  intro?: ChecklistBlock[];
}

export type ChecklistAnswer = 'yes' | 'no' | boolean;
export type ChecklistAnswers = Readonly<Record<string, ChecklistAnswer | undefined>>;

export interface ChecklistProgress {
  /** How many steps (items shown together) are revealed, 1 or more. */
  revealed: number;
  /** The gates of the last revealed step answered 'no'; something blocks when not empty. */
  blockedBy: ChecklistGate[];
  /** Every gate 'yes', every choice made, every box ticked. */
  complete: boolean;
}

/** The items grouped into steps: an item with `withPrevious` joins the step before it. */
export function checklistSteps(checklist: Checklist): ChecklistItem[][] {
  const steps: ChecklistItem[][] = [];
  for (const item of checklist.items) {
    const last = steps[steps.length - 1];
    if (item.withPrevious && last) last.push(item);
    else steps.push([item]);
  }
  return steps;
}

function done(item: ChecklistItem, answer: ChecklistAnswer | undefined): boolean {
  switch (item.kind) {
    case 'gate':
      return answer === 'yes';
    case 'choice':
      return answer === 'yes' || answer === 'no';
    case 'acknowledgement':
      return answer === true;
  }
}

/**
 * Pure: which steps are revealed, what blocks, whether the applicant may go on. A step is
 * revealed when everything before it is done; a gate answered 'no' hides the steps after it.
 */
export function checklistProgress(checklist: Checklist, answers: ChecklistAnswers): ChecklistProgress {
  let revealed = 0;
  for (const step of checklistSteps(checklist)) {
    revealed += 1;
    const blockedBy = step.filter((item): item is ChecklistGate => item.kind === 'gate' && answers[item.id] === 'no');
    if (blockedBy.length > 0) return { revealed, blockedBy, complete: false };
    if (!step.every((item) => done(item, answers[item.id]))) return { revealed, blockedBy: [], complete: false };
  }
  return { revealed: Math.max(revealed, 1), blockedBy: [], complete: true };
}

/** The placeholders a checklist text may contain, e.g. 「{bankName}で初めて…」. */
export function checklistPlaceholders(bank: Pick<PublicBankConfig, 'NAME' | 'homePrefecture' | 'neighbouringPrefectures'>): Record<string, string> {
  return {
    bankName: bank.NAME,
    areaPrefectures: [bank.homePrefecture, ...bank.neighbouringPrefectures].join('・'),
  };
}

export const CHECKLIST_PLACEHOLDERS = ['bankName', 'areaPrefectures'] as const;

/** Replaces each {name} whose value is given; other braces stay as they are. */
export function fillChecklistText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => values[name] ?? whole);
}
