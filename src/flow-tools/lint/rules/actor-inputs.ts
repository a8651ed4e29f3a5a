import { escapePointerSegment } from '../../../domain/json-pointer';
import { invokesOf, isObject } from '../../../domain/flow/model';
import { actorInputs, actorNames, isOneOf } from '../../../domain/flow/vocabulary';
import { providerMethods } from '../../../domain/identity-check-methods';
import type { MeaningRule } from '../rule';
import { suggestion, withChoices } from '../words';

export const actorInputsRule: MeaningRule = {
  name: 'actor-inputs',
  description: 'An invoked actor gets exactly the inputs it reads (actorInputs in the vocabulary), each in range: the settings a product owner may change, such as the eKYC polling.',
  stage: 'meaning',
  check({ nodes, root, meta }, report) {
    const applicationType = String(meta.applicationType);
    for (const node of nodes) {
      if (node === root) continue;
      for (const { src, config, pointer: invokePointer } of invokesOf(node)) {
        if (!isOneOf(actorNames, src)) continue; // known-actors names it
        const rules = actorInputs[src];
        const names = Object.keys(rules);
        const input = config.input;
        const at = `${invokePointer}/input`;
        if (names.length === 0) {
          if (input !== undefined) report(at, `the actor "${src}" takes no input; remove "input"`);
          continue;
        }
        if (!isObject(input)) {
          const example = names.map((n) => `"${n}": …`).join(', ');
          report(input === undefined ? invokePointer : at, `the actor "${src}" needs "input": { ${example} }`);
          continue;
        }
        for (const key of Object.keys(input)) {
          if (!names.includes(key)) report(`${at}/${escapePointerSegment(key)}`, withChoices(`unknown input "${key}" of the actor "${src}"`, key, 'its inputs', names));
        }
        for (const [name, rule] of Object.entries(rules)) {
          const value = input[name];
          if (value === undefined) {
            // A misspelt key is named above with "Did you mean"; it is not also missing.
            if (!Object.keys(input).some((k) => suggestion(k, [name]) !== '')) report(at, `the input of "${src}" is missing "${name}"`);
            continue;
          }
          const pointer = `${at}/${escapePointerSegment(name)}`;
          if (rule.kind === 'providerMethod') {
            if (!isOneOf(providerMethods, value)) report(pointer, withChoices(`"${name}" must be a method started at a provider, not ${JSON.stringify(value)}`, String(value), 'the methods', providerMethods));
          } else if (rule.kind === 'applicationType') {
            if (value !== applicationType) report(pointer, `"${name}" must be ${JSON.stringify(applicationType)}, the meta.applicationType of this flow, not ${JSON.stringify(value)}`);
          } else if (typeof value !== 'number' || !Number.isInteger(value) || value < rule.min || value > rule.max) {
            report(pointer, `"${name}" must be a whole number from ${rule.min} to ${rule.max} (${rule.meaning}), not ${JSON.stringify(value)}`);
          }
        }
      }
    }
  },
};
