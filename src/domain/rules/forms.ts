/**
 * The bridge between the rules and the two sides: the browser form runs these on blur and
 * submit and shows each message at its field; the server runs them after the JSON Schema
 * and answers 400 with the same messages. Bodies are taken loosely typed (unknown values)
 * because the client calls this with form state and the server with a parsed request
 * body: a value of the wrong type counts as empty here, and the schema reports its type.
 *
 * Division of labour with the schema: rules about one non-empty value that a schema can
 * say (required, pattern, maxLength) are the schema's; here are the rules that combine
 * fields, need the date, the bank or the occupation master, or normalise first. Where the
 * brief wants both sides to agree without the schema (phones), the message is the
 * schema's, so a merged list may name a field twice with the same text; at most one
 * error per field is returned from here, the first in the order below.
 */
import type { FieldError } from './field-error.js';
import { checkKanaNameLength, checkNameLength, checkUnusableNameCharacters } from './names.js';
import { checkWorkplacePhone } from './phones.js';
import { checkExistingAccount, checkWorkplaceName, isBranchCodeInput } from './workplace.js';

export type { FieldError } from './field-error.js';

/**
 * A request body or form state: field name → value of any type. `object` rather than
 * Record<string, unknown> so that a value typed by an interface (which has no index
 * signature) can be passed as it is; fields are read through `read`.
 */
export type RuleBody = object;

/** One field of a body; a cast is safe because any object can be read by key. */
function read(body: RuleBody, field: string): unknown {
  return (body as Readonly<Record<string, unknown>>)[field];
}

/** The value if it is a string, else null (so a number or object never reaches a rule). */
function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A field's value if it is a string, else null. */
function textField(body: RuleBody, field: string): string | null {
  return text(read(body, field));
}

/** Collects errors, keeping the first per field. */
class Collector {
  readonly errors: FieldError[] = [];

  add(field: string, message: string | null): void {
    if (message !== null && !this.errors.some((error) => error.field === field)) this.errors.push({ field, message });
  }
}

/** Unusable characters on each name field, then the combined lengths on the last-name fields. */
function nameErrors(body: RuleBody, errors: Collector): void {
  const lastName = textField(body, 'lastName');
  const firstName = textField(body, 'firstName');
  errors.add('lastName', checkUnusableNameCharacters(lastName));
  errors.add('firstName', checkUnusableNameCharacters(firstName));
  errors.add('lastName', checkNameLength(lastName, firstName));
  errors.add('kanaLastName', checkKanaNameLength(textField(body, 'kanaLastName'), textField(body, 'kanaFirstName')));
}

/** The name rules alone, for the rule registry. */
export function nameRuleErrors(body: RuleBody): FieldError[] {
  const errors = new Collector();
  nameErrors(body, errors);
  return errors.errors;
}

/**
 * Rules of the workplace step (also the parent's workplace in the child flow) a schema cannot
 * say: the workplace name's symbols and numerals, checked normalised (normalizeWorkplaceName,
 * which is what the server stores), the phone's three parts, and the existing account as a
 * pair (both or neither; the message goes to the first of the two that is wrong). When they
 * are asked and required is the form's conditions (x-when, x-required-when), not a rule's.
 */
export function workplaceRuleErrors(body: RuleBody): FieldError[] {
  const errors = new Collector();
  errors.add('workplaceName', checkWorkplaceName(textField(body, 'workplaceName'), false));
  errors.add('workplacePhoneNumber', checkWorkplacePhone(textField(body, 'workplacePhoneNumber'), false));

  const branch = textField(body, 'existedAccountBranchCode') ?? '';
  const account = textField(body, 'existedAccountNumber') ?? '';
  if (branch.trim() !== '' || account.trim() !== '') {
    errors.add(
      isBranchCodeInput(branch) ? 'existedAccountNumber' : 'existedAccountBranchCode',
      checkExistingAccount(branch, account),
    );
  }
  return errors.errors;
}
