import { formsOf, metaOf, stringMeta } from '../../../domain/flow/model';
import { formScreenNames, isOneOf, screenNames } from '../../../domain/flow/vocabulary';
import type { MeaningRule } from '../rule';
import { withChoices } from '../words';

export const knownForms: MeaningRule = {
  name: 'known-forms',
  description: 'meta.form names a schema of schemas/, on exactly the screens that ask a form (formScreenNames in the vocabulary).',
  stage: 'meaning',
  check({ nodes, root, formNames }, report) {
    const forms = [...formNames].sort();
    for (const node of nodes) {
      if (node === root) continue;
      const screen = stringMeta(node, 'screen');
      const named = formsOf(metaOf(node).form);
      const listed = Array.isArray(metaOf(node).form);
      named.forEach((name, index) => {
        if (forms.includes(name)) return;
        const pointer = `${node.pointer}/meta/form${listed ? `/${index}` : ''}`;
        report(pointer, withChoices(`unknown form "${name}"`, name, 'known forms, schemas/<form>.schema.json', forms));
      });
      const form = named[0];
      const asksForm = screen !== undefined && isOneOf(formScreenNames, screen);
      if (asksForm && form === undefined) {
        report(`${node.pointer}/meta`, `screen "${screen}" asks a form: name it in "form" (known forms, schemas/<form>.schema.json: ${forms.join(', ')})`);
      } else if (!asksForm && form !== undefined && screen !== undefined && isOneOf(screenNames, screen)) {
        report(`${node.pointer}/meta/form`, `screen "${screen}" asks no form, so "form" would be ignored; remove it (screens with a form: ${formScreenNames.join(', ')})`);
      }
    }
  },
};
