import { FORM_FORMAT_SCHEMA_REF, FORM_FORMAT_VERSION, FORMAT_KEYWORD } from '../../../domain/forms/format';
import { formatVersionOf } from '../../form-format/migrate';
import type { FileRule } from '../rule';

export const formatVersion: FileRule = {
  name: 'format-version',
  description: 'A form file names the form format it is written in ("$schema" for editors, "x-format" for the service); an older version is refused with the command that migrates it.',
  stage: 'file',
  check(form, _format, report) {
    const { schema } = form;
    const version = formatVersionOf(schema);
    if (version < FORM_FORMAT_VERSION) {
      report(form, '', `this file is written in form format ${version} (it has no "${FORMAT_KEYWORD}": ${FORM_FORMAT_VERSION}); run npm run forms:migrate, which rewrites it in format ${FORM_FORMAT_VERSION} and says what it changed (docs/forms.md, "Migrating from format 1")`);
      return;
    }
    if (version > FORM_FORMAT_VERSION) report(form, `/${FORMAT_KEYWORD}`, `form format ${version} is newer than this service reads (format ${FORM_FORMAT_VERSION}): update the service, or write the file in format ${FORM_FORMAT_VERSION}`);
    if (schema.$schema !== FORM_FORMAT_SCHEMA_REF) {
      report(form, '/$schema', `"$schema" must be "${FORM_FORMAT_SCHEMA_REF}", the form format an editor checks the file against, not ${JSON.stringify(schema.$schema)}`);
    }
  },
};
