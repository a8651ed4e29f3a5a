import type { FormRule } from '../rule';

export const fileId: FormRule = {
  name: 'file-id',
  description: 'A form\'s "$id", when given, is its file name: forms are found by it.',
  stage: 'form',
  check(form, _context, report) {
    const id = form.schema.$id;
    const fileName = `${form.name}.schema.json`;
    if (id !== undefined && id !== fileName) report(form, '/$id', `"$id" must be the file name "${fileName}" (forms are found by it), not ${JSON.stringify(id)}`);
  },
};
