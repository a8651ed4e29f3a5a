import { Fragment, useId, useState, type ReactNode } from 'react';
import type { BankLinks, PublicBankConfig } from '../../../domain/bank/types';
import {
  checklistPlaceholders,
  checklistProgress,
  checklistSteps,
  fillChecklistText,
  type Checklist as ChecklistData,
  type ChecklistAnswer,
  type ChecklistBlock,
  type ChecklistBlocking,
  type ChecklistItem,
} from '../../../domain/checklist';
import { messages } from '../../../domain/messages';
import { ExternalLink } from '../../ui/ExternalLink';
import { YesNoQuestion } from '../../ui/YesNoQuestion';
import { Acknowledgement } from './Acknowledgement';
import { BlockingMessage } from './BlockingMessage';
import { ProceedActions } from './ProceedActions';
import { RegulationDocuments } from './RegulationDocuments';
import { useFocusOnReveal } from './useFocusOnReveal';

export interface ChecklistProps {
  checklist: ChecklistData;
  bank: PublicBankConfig;
  onNext: () => void;
  onBack?: (() => void) | undefined;
  className?: string;
}

type Fill = (text: string) => string;

function Blocks({ blocks, fill, links }: { blocks: ChecklistBlock[]; fill: Fill; links: BankLinks }): ReactNode {
  return blocks.map((block, index) => {
    switch (block.kind) {
      case 'paragraph':
        return <p key={index}>{fill(block.text)}</p>;
      case 'note':
        return (
          <p key={index} className="note">
            {fill(block.text)}
          </p>
        );
      case 'link':
        return (
          <p key={index}>
            <ExternalLink href={links[block.link]}>{fill(block.label)}</ExternalLink>
          </p>
        );
      case 'regulationDocuments':
        return <RegulationDocuments key={index} links={links} />;
      case 'list': {
        const items = block.items.map((item, itemIndex) =>
          typeof item === 'string' ? (
            <li key={itemIndex}>{fill(item)}</li>
          ) : (
            <li key={itemIndex}>
              {fill(item.text)}
              {item.note !== undefined && <p className="note">{fill(item.note)}</p>}
              {item.items && (
                <ul className="bullet-list">
                  {item.items.map((inner, innerIndex) => (
                    <li key={innerIndex}>{fill(inner)}</li>
                  ))}
                </ul>
              )}
            </li>
          ),
        );
        const className = block.style === 'features' ? 'feature-list' : 'bullet-list';
        return block.ordered ? (
          <ol key={index} className={className}>
            {items}
          </ol>
        ) : (
          <ul key={index} className={className}>
            {items}
          </ul>
        );
      }
    }
  });
}

/** Blocks of a checklist file outside its steps (the page's introduction), with the bank's words. */
export function ChecklistBlocks({ blocks, bank }: { blocks: ChecklistBlock[]; bank: PublicBankConfig }): ReactNode {
  const values = checklistPlaceholders(bank);
  return <Blocks blocks={blocks} fill={(text) => fillChecklistText(text, values)} links={bank.links} />;
}

function blockingText(blocking: ChecklistBlocking, fill: Fill): string {
  return 'message' in blocking ? messages[blocking.message] : fill(blocking.text);
}

/**
 * One landing checklist from its data (checklists/*.json): steps revealed one after another, a
 * gate's 'no' shows its message and hides the rest, a newly revealed step is scrolled into view
 * and focused (so that screen readers announce it), and 次へ is enabled once everything is done.
 */
export function Checklist({ checklist, bank, onNext, onBack, className }: ChecklistProps) {
  const headingId = useId();
  const [answers, setAnswers] = useState<Record<string, ChecklistAnswer>>({});
  const { revealed, blockedBy, complete } = checklistProgress(checklist, answers);
  const stepRef = useFocusOnReveal(revealed);
  const values = checklistPlaceholders(bank);
  const fill: Fill = (text) => fillChecklistText(text, values);
  const set = (id: string) => (value: ChecklistAnswer) => setAnswers((previous) => ({ ...previous, [id]: value }));

  const renderItem = (item: ChecklistItem, ref: ((element: HTMLElement | null) => void) | undefined): ReactNode => {
    const shownNumber = checklist.numbered ? checklist.items.indexOf(item) + 1 : undefined;
    const body = item.body && item.body.length > 0 ? <Blocks blocks={item.body} fill={fill} links={bank.links} /> : undefined;
    if (item.kind === 'acknowledgement') {
      return (
        <Acknowledgement
          key={item.id}
          ref={ref}
          number={shownNumber}
          title={fill(item.title)}
          label={fill(item.check)}
          checked={answers[item.id] === true}
          onChange={set(item.id)}
        >
          {body}
        </Acknowledgement>
      );
    }
    const answer = answers[item.id];
    return (
      <YesNoQuestion
        key={item.id}
        ref={ref}
        number={shownNumber}
        legend={fill(item.question)}
        value={answer === 'yes' || answer === 'no' ? answer : undefined}
        onChange={set(item.id)}
        {...(item.yesLabel !== undefined && { yesLabel: fill(item.yesLabel) })}
        {...(item.noLabel !== undefined && { noLabel: fill(item.noLabel) })}
        {...(item.layout !== undefined && { layout: item.layout })}
      >
        {body}
      </YesNoQuestion>
    );
  };

  const steps = checklistSteps(checklist).map((step, index) => {
    if (index >= revealed) return null;
    const blocked = index === revealed - 1 ? blockedBy : [];
    // Two gates of one step may say the same: the message is shown once.
    const shown = [...new Map(blocked.map((gate) => [blockingText(gate.blocking, fill), gate.blocking])).entries()];
    return (
      <Fragment key={index}>
        {step.map((item, position) => renderItem(item, position === 0 ? stepRef(index) : undefined))}
        {shown.map(([text, blocking]) => (
          <BlockingMessage
            key={text}
            {...(blocking.link && { branchSearch: { href: bank.links[blocking.link.link], label: fill(blocking.link.label) } })}
          >
            {text}
          </BlockingMessage>
        ))}
      </Fragment>
    );
  });

  const actions = <ProceedActions ready={complete} hint={blockedBy.length > 0 ? null : checklist.hint} onNext={onNext} onBack={onBack} />;
  if (checklist.heading === undefined) {
    return (
      <>
        {steps}
        {actions}
      </>
    );
  }
  return (
    <section className={['pre-check', className].filter(Boolean).join(' ')} aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        {fill(checklist.heading)}
      </h2>
      {checklist.lead !== undefined && <p>{fill(checklist.lead)}</p>}
      {steps}
      {actions}
    </section>
  );
}
