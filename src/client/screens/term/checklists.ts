import type { Checklist } from '../../../domain/checklist';
import childBeforeCheck from '../../../../checklists/child-before-check.json';
import childTerm from '../../../../checklists/child-term.json';
import generalTerm from '../../../../checklists/general-term.json';

/**
 * The landing checklists, bundled at build time from checklists/*.json. JSON imports are typed
 * loosely (a "kind" is any string), so they are read as Checklist here; tests/unit/checklists.test.ts
 * proves every file against checklists/checklist.schema.json, the bank links and the messages.
 */
const asChecklist = (data: unknown): Checklist => data as Checklist;

export const generalTermChecklist = asChecklist(generalTerm);
export const childBeforeCheckChecklist = asChecklist(childBeforeCheck);
export const childTermChecklist = asChecklist(childTerm);
