import type { ValidateFunction } from 'ajv';
import type { FlowContext } from './context';
import type { FlowSource } from './source';

/** Adds a problem at a JSON pointer; its line is the pointer's unless given. */
export type Report = (pointer: string, message: string, line?: number) => void;

interface RuleInfo {
  /** kebab-case, as the file name in rules/ and the test in tests/unit/flow-lint-rules/. */
  name: string;
  /** What the rule refuses and why, in one sentence. */
  description: string;
}

/** A rule on the file as written: it runs on any well-formed JSON, before the meaning rules. */
export interface SourceRule extends RuleInfo {
  stage: 'source';
  check(input: { source: FlowSource; schema: object; validate?: ValidateFunction | undefined }, report: Report): void;
}

/** A rule on what the flow means: it runs only when no source rule found anything (the schema holds). */
export interface MeaningRule extends RuleInfo {
  stage: 'meaning';
  check(flow: FlowContext, report: Report): void;
}

export type FlowLintRule = SourceRule | MeaningRule;
