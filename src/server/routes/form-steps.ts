import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../domain/messages.js';
import type { FieldError } from '../../domain/rules/field-error.js';
import type { OfferedOption } from '../../domain/rules/registry.js';
import { isRecord, optionFieldsOf, summaryTitleOf, type FormSchema, type OptionAsker } from '../../domain/forms/format.js';
import { normalizeAnswers } from '../../domain/forms/answers.js';
import { judgeAnswers } from '../../domain/forms/field-states.js';
import { formFor } from '../../domain/forms/flow-forms.js';
import { inFieldOrder } from '../../domain/forms/order.js';
import { labelsOf } from '../../domain/forms/labels.js';
import type { BankConfig } from '../../domain/bank/types.js';
import { formSteps, type FormCatalogue, type FormDefinition } from '../forms/catalogue.js';
import { derivations, type DerivationScope } from '../forms/derivations.js';
import { storeDocumentBeforePin } from '../forms/documents.js';
import { optionSources } from '../forms/options.js';
import { storedAnswersOf, withStoredForm, type StoredAnswers } from '../forms/answers.js';
import { applicationsAnswerOf } from './applications.js';
import { httpMessages } from '../http-messages.js';
import { applicationOf, storedAnswersOfRequest } from '../plugins/auth.js';
import { toValidationFailure, validator } from '../validation.js';
import { stepEditHooks } from './step-lock.js';
import { firstStepResumeMail } from '../resume/applications.js';
import { parseRevision, REVISION_HEADER } from '../../domain/revision.js';

/**
 * One handler for every form step of the generic engine: each schema of SCHEMAS_DIR with
 * "x-step" is accepted at its x-step.post, from the applicants whose flow version asks it. The
 * answers are normalised as the page does (domain/forms), completed from our own data
 * (x-step.derive), rid of the fields not asked (x-when, as the applicant's flow asks the form:
 * its overlay in x-flows), checked against the same schema, the conditions, the named rules
 * and the data of its choices, all at once, and stored whole as the form's document, with the
 * label of each chosen value beside it (for the bank): 200 with what the application then holds (as GET /api/applications answers it)
 * or 400 { message, errors } with every failed field in the form's order (message = the
 * first, which the page focuses; one message per field). A refused post
 * stores nothing. A form posted before a form it comes after (x-step.after) is 409, named by
 * that form's confirmation title (messages.stepFirst); so is a post whose X-Application-Revision
 * is older than the stored one (messages.revisionConflict, ADR 0030); a form stored into another record
 * (x-step.storedAs) is stored the same way (answers.ts keeps it out of `application`).
 *
 * The session is checked onRequest, before the body is parsed, and so is the lock after the
 * PIN (step-lock.ts); the lock is checked again in the transaction that stores.
 */

/** The choices each x-options field offers this applicant (the page lists the same). */
async function offeredChoices(request: FastifyRequest, bank: BankConfig, form: FormDefinition, asker: OptionAsker) {
  const fields = optionFieldsOf(form.schema);
  const lists = await Promise.all(fields.map(({ options }) => optionSources[options.source](request.server.masterData, bank, asker)));
  return Object.fromEntries(fields.map(({ field }, index) => [field, lists[index] ?? []])) as Record<string, OfferedOption[]>;
}

/**
 * Chosen options that are not offered, and what the form stores of its choices: the labels
 * (labelAs) beside them, a multiple choice in the order its source offers it.
 */
function checkOptions(form: FormDefinition, offeredByField: Record<string, OfferedOption[]>, answers: Record<string, unknown>) {
  const errors: FieldError[] = [];
  const stored: Record<string, unknown> = {};
  for (const { field, options } of optionFieldsOf(form.schema)) {
    const value = answers[field];
    if (value === undefined) continue;
    const offered = offeredByField[field] ?? [];
    if (Array.isArray(value)) {
      if (!value.every((item) => offered.some((option) => option.value === item))) errors.push({ field, message: messages.selectRequired });
      else stored[field] = offered.filter((option) => value.includes(option.value)).map((option) => option.value);
      continue;
    }
    const chosen = offered.find((option) => option.value === value);
    if (!chosen) errors.push({ field, message: messages.selectRequired });
    else if (options.labelAs) stored[options.labelAs] = chosen.label;
  }
  return { errors, stored };
}

/** What the form's x-step.derive adds from our data, and the failures found on the way. */
async function derive(request: FastifyRequest, form: FormDefinition, answers: Record<string, unknown>, scope: DerivationScope) {
  const values: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const name of form.step?.derive ?? []) {
    const derived = await derivations[name].run(request.server, answers, scope);
    Object.assign(values, derived.values);
    errors.push(...derived.errors);
  }
  return { values, errors };
}

/** The answers the schema judges: its own fields only (derived values beside them are ours). */
function ownFields(form: FormDefinition, answers: Record<string, unknown>): Record<string, unknown> {
  const fields = form.schema.properties ?? {};
  return Object.fromEntries(Object.entries(answers).filter(([field]) => Object.hasOwn(fields, field)));
}

/** One failure per field (the first found: schema, derivation, rules, choices), in the form's order. */
function failureOf(schema: FormSchema, errors: FieldError[]) {
  const unique = errors.filter((error, index) => errors.findIndex((other) => other.field === error.field) === index);
  const sorted = inFieldOrder(schema, unique);
  return { message: sorted[0]?.message ?? messages.badRequest, errors: sorted };
}

/** The first form of x-step.after not among the stored ones, if any. */
function firstMissing(catalogue: FormCatalogue, form: FormDefinition, stored: Readonly<Record<string, unknown>>): FormDefinition | undefined {
  const missing = (form.step?.after ?? []).find((name) => !Object.hasOwn(stored, name));
  if (missing === undefined) return undefined;
  const definition = catalogue.get(missing);
  if (!definition) throw new Error(`schemas/${form.name}.schema.json comes after "${missing}", which is not a form`);
  return definition;
}

/**
 * The revision the page read (X-Application-Revision): undefined when not sent (the check is
 * then skipped), null when it is not a revision.
 */
function revisionOf(request: FastifyRequest): number | undefined | null {
  const header = request.headers[REVISION_HEADER];
  if (header === undefined) return undefined;
  return parseRevision(header) ?? null;
}

/**
 * What the application holds after this step: what the session check read with this form
 * stored, when nothing else was stored between the two statements (the revision went up by
 * exactly this store); read again otherwise. The next page opens with it instead of asking
 * GET /api/applications (ADR 0042).
 */
async function storedAfter(request: FastifyRequest, before: StoredAnswers, form: string, document: Record<string, unknown>, revision: number): Promise<StoredAnswers> {
  const { forms } = request.server;
  if (revision === before.revision + 1) return withStoredForm(forms, before, form, document, revision);
  const read = await storedAnswersOf(request.server.db, forms, applicationOf(request).id);
  if (!read) throw new Error('a stored application has no row');
  return read;
}

function handlerFor(form: FormDefinition) {
  const rules = form.step?.rules ?? [];
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const application = applicationOf(request);
    const { id, applicationType } = application;
    const app = request.server;
    // The form is not part of the flow this applicant runs (their own version of it, which a
    // later edit of FLOWS_DIR does not change): for them the path does not exist.
    const version = await app.flowVersions.of(application);
    if (!version?.forms.has(form.name)) return reply.code(404).send({ message: httpMessages.notFound });
    // The form as this applicant's flow asks it (its overlay in x-flows).
    const asked = formFor(form.schema, version.flow.id);
    // Read with the session: the rules, x-step.after and some choices judge by them, and the answer is built from them.
    const stored = storedAnswersOfRequest(request);
    // A form that comes after others (x-step.after) waits for them, whatever the body says.
    const missing = firstMissing(app.forms, form, stored.forms);
    if (missing !== undefined) return reply.code(409).send({ message: messages.stepFirst(summaryTitleOf(formFor(missing.schema, version.flow.id))) });
    const expectedRevision = revisionOf(request);
    if (!isRecord(request.body) || expectedRevision === null) return reply.code(400).send({ message: messages.badRequest, errors: [] });
    const bank = request.bank;
    if (!bank) throw new Error('requireApplication let a request without a bank through');
    const now = app.now();
    const saved = stored.application;
    const asker = { applicationType, today: now, saved };
    const context = { ...asker, bank, offered: await offeredChoices(request, bank, form, asker) };
    const normalized = normalizeAnswers(asked, request.body);
    const derived = await derive(request, form, normalized, { bankCode: bank.code, now });
    // What the answers ask (x-when), require and lock: what is not asked is neither checked nor stored.
    const validate = validator(`${form.name}.schema.json`, app.config.schemasDir);
    const schemaErrorsOf = (answers: Record<string, unknown>) => (validate(ownFields(form, answers)) ? [] : toValidationFailure(validate.errors).errors);
    const { answers, errors: judged } = judgeAnswers(asked, rules, { ...normalized, ...derived.values }, context, schemaErrorsOf);
    const errors = [...judged, ...derived.errors];
    const options = checkOptions(form, context.offered, answers);
    errors.push(...options.errors);
    if (errors.length > 0) return reply.code(400).send(failureOf(asked, errors));

    // The PIN route locks this row in its own transaction: whichever comes second sees the
    // other, so no answer changes once the PIN is set (the onRequest check alone leaves a gap).
    const document = { ...answers, ...options.stored };
    // What the bank receives beside each chosen value: its label as the page offered it.
    const labels = labelsOf(asked, document, context.offered);
    // No step stored yet: this one queues the resume mail (none without an address: a stub).
    const mailAddress = typeof saved.mailAddress === 'string' ? saved.mailAddress : '';
    const firstStepMail = stored.revision === 0 && mailAddress !== '' ? await firstStepResumeMail(app, bank, application, mailAddress, now) : undefined;
    const outcome = await storeDocumentBeforePin(app.db, id, form.name, { answers: document, labels }, now, expectedRevision, firstStepMail);
    if (!outcome.stored) return reply.code(409).send({ message: outcome.reason === 'conflict' ? messages.revisionConflict : messages.stepsLockedAfterPin });
    reply.header(REVISION_HEADER, String(outcome.revision));
    if (outcome.firstStepMail) app.mailQueue.handOff(outcome.firstStepMail);
    return applicationsAnswerOf(await storedAfter(request, stored, form.name, document, outcome.revision));
  };
}

const formStepRoutes: FastifyPluginAsync = async (app) => {
  // Every form step of SCHEMAS_DIR has its route: which applicant may post it depends on the
  // flow version they run, which may be older or newer than this process's FLOWS_DIR.
  for (const form of formSteps(app.forms)) {
    if (form.step) app.post(form.step.post, { onRequest: stepEditHooks }, handlerFor(form));
  }
};

export default formStepRoutes;
