/**
 * What the form lint's rules read: each form file as written (its text with positions) and as
 * the engine reads it (src/domain/forms), and, for the rules about forms in their flows, which
 * flow asks which form on which page. Facts several rules need are worked out here once.
 */
import { escapePointerSegment } from '../../domain/json-pointer';
import { describeFlow } from '../../domain/flow/model';
import { resumeSteps } from '../../domain/flow/resume';
import type { FlowConfig } from '../../domain/flow/types';
import { listedOptionsOf } from '../../domain/forms/answers';
import { conditionKeywords, FLOWS_KEYWORD, isRecord, OPTIONS_KEYWORD, uiSchemaOf, type ConditionKeyword, type FormSchema } from '../../domain/forms/format';
import { overlaysOf } from '../../domain/forms/flow-forms';
import { PREFECTURES } from '../../domain/prefectures';
import { readSource } from '../lint/source';

export interface FormFileInput {
  /** The form's name: schemas/<name>.schema.json. */
  name: string;
  /** As the problems name it, e.g. "schemas/branch.schema.json". */
  fileName: string;
  text: string;
}

/** A form file that is JSON, as its rules read it. */
export interface FormFile {
  name: string;
  fileName: string;
  text: string;
  /** As parsed (the file rules have checked its shape before the form rules read it). */
  schema: FormSchema;
  lineOf(pointer: string): number;
}

/** One page of a flow that asks forms, in the order the flow's pages come. */
export interface AskingPage {
  stateId: string;
  forms: readonly string[];
  screen: string | undefined;
}

/** A flow as the form rules read it: its id, its file, and its pages in order. */
export interface FlowUse {
  id: string;
  fileName: string;
  text: string;
  config: FlowConfig;
  pages: AskingPage[];
  lineOf(pointer: string): number;
}

export interface FormsContext {
  /** Every form file that is JSON and passed the file rules. */
  forms: FormFile[];
  /** The flows, when they passed their own lint (the rules about forms in flows wait for them). */
  flows: FlowUse[] | undefined;
  /** The values each option source offers in at least one bank, where they are known without a database. */
  sourceValues: Readonly<Record<string, readonly string[]>>;
  /** The banks' codes (banks/<code>). */
  bankCodes: readonly string[];
  /** The names the stored application gives to its own columns (mailAddress, …): no form's field may take one. */
  columnNames: readonly string[];
  /** Why the server's ajv (strict) would refuse a form's schema, if it would. */
  compileProblem?: (form: string) => string | undefined;
}

export function formFileOf(input: FormFileInput): FormFile | { problem: { line: number; message: string } } {
  const source = readSource(input.text);
  if (!('lineOf' in source)) return { problem: { line: source.line, message: `invalid JSON at line ${source.line} column ${source.column}: ${source.message}` } };
  if (!isRecord(source.value)) return { problem: { line: 1, message: 'a form file is one JSON object' } };
  return { ...input, schema: source.value as FormSchema, lineOf: source.lineOf };
}

export function flowUseOf(fileName: string, text: string, config: FlowConfig): FlowUse {
  const source = readSource(text);
  const model = describeFlow(config);
  // The steps in the order an applicant meets them (NEXT from the e-mail check), then any other page.
  const along = resumeSteps(model);
  const ordered = [...along, ...model.pages.filter((page) => !along.includes(page))];
  const pages = ordered.map((page) => ({ stateId: page.stateId, forms: page.forms, screen: page.screen }));
  return { id: config.id, fileName, text, config, pages, lineOf: 'lineOf' in source ? source.lineOf : () => 1 };
}

/** One condition written in a form: on a field, in the form itself or in one flow's overlay. */
export interface WrittenCondition {
  field: string;
  keyword: ConditionKeyword;
  condition: unknown;
  pointer: string;
  /** The flow whose overlay holds it, or undefined for the form's own. */
  flow: string | undefined;
}

/** Every condition a form file writes, where it writes it. */
export function conditionsOf(schema: FormSchema): WrittenCondition[] {
  const found: WrittenCondition[] = [];
  const collect = (properties: unknown, at: string, flow: string | undefined) => {
    if (!isRecord(properties)) return;
    for (const [field, property] of Object.entries(properties)) {
      if (!isRecord(property)) continue;
      for (const keyword of conditionKeywords) {
        if (property[keyword] !== undefined) found.push({ field, keyword, condition: property[keyword], pointer: `${at}/${escapePointerSegment(field)}/${keyword}`, flow });
      }
    }
  };
  collect(schema.properties, '/properties', undefined);
  for (const [flow, overlay] of Object.entries(overlaysOf(schema))) {
    if (isRecord(overlay)) collect(overlay.properties, `/${FLOWS_KEYWORD}/${escapePointerSegment(flow)}/properties`, flow);
  }
  return found;
}

/** The values a field can take when they are a closed list: its listed options, or its bank data's known values; undefined when open. */
export function valuesOfField(schema: FormSchema, field: string, context: Pick<FormsContext, 'sourceValues'>): readonly unknown[] | undefined {
  const property = schema.properties?.[field];
  if (!isRecord(property)) return undefined;
  const options = property[OPTIONS_KEYWORD];
  if (isRecord(options) && typeof options.source === 'string') return context.sourceValues[options.source];
  const entry = uiSchemaOf(schema)[field];
  const enumNames = isRecord(entry) ? entry['ui:enumNames'] : undefined;
  const described = property.type === 'array' && isRecord(property.items) ? property.items : property;
  const listed = listedOptionsOf(described, enumNames);
  return listed.length > 0 ? listed.map((option) => option.value) : undefined;
}

/** The values of the option sources known without a database: prefectures, and each bank's purposes. */
export function knownSourceValues(bankPurposes: readonly string[]): Record<string, readonly string[]> {
  return { prefectures: PREFECTURES, purposes: [...new Set(bankPurposes)] };
}

/** The forms a flow asks before `form` (on earlier pages, then earlier on its page), nearest last; undefined when the flow does not ask it. */
export function formsBefore(flow: FlowUse, form: string): string[] | undefined {
  const before: string[] = [];
  for (const page of flow.pages) {
    const index = page.forms.indexOf(form);
    if (index >= 0) return [...before, ...page.forms.slice(0, index)];
    before.push(...page.forms);
  }
  return undefined;
}

/** The flows that ask a form (all of them for a condition of the form itself, the overlay's for one in an overlay). */
export function flowsAsking(context: FormsContext, form: string, only?: string): FlowUse[] {
  return (context.flows ?? []).filter((flow) => (only === undefined || flow.id === only) && formsBefore(flow, form) !== undefined);
}

/** The form of `candidates` (names, nearest last) that has the field, if any. */
export function ownerAmong(context: FormsContext, candidates: readonly string[], field: string): FormFile | undefined {
  for (const name of [...candidates].reverse()) {
    const form = context.forms.find((file) => file.name === name);
    if (form && Object.hasOwn(form.schema.properties ?? {}, field)) return form;
  }
  return undefined;
}
/** The pointer of a page's form in its flow file: meta.form, or its place in meta.form's list. */
export function pagePointer(page: AskingPage, index: number): string {
  return `/states/${page.stateId}/meta/form${page.forms.length > 1 ? `/${index}` : ''}`;
}

/** A form as one page of one flow asks it, with where the flow file names it. */
export interface AskedForm {
  flow: FlowUse;
  page: AskingPage;
  name: string;
  /** The form's file, unless the catalogue lacks it (another rule reports that). */
  form: FormFile | undefined;
  /** The pointer of this form's name in the flow file. */
  pointer: string;
}

/** Every form every flow asks, flow by flow, in the order each flow asks them. */
export function askedForms({ flows, forms }: Pick<FormsContext, 'flows' | 'forms'>): AskedForm[] {
  return (flows ?? []).flatMap((flow) =>
    flow.pages.flatMap((page) => page.forms.map((name, index) => ({ flow, page, name, form: forms.find((file) => file.name === name), pointer: pagePointer(page, index) }))),
  );
}
