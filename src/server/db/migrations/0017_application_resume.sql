-- Resuming an application (issue 14, ADR 0030).
-- revision counts the writes of an applicant's answers: every stored step adds one. A page sends
-- the revision it read with each step it posts; a different one means another device (or tab)
-- wrote since, and the post is refused with 409 instead of silently overwriting newer answers.
ALTER TABLE applications ADD COLUMN revision integer NOT NULL DEFAULT 0;
-- Resume finds an applicant's newest application by bank, type and address, compared as the
-- verification codes compare it (trimmed, lower case; src/server/crypto.ts normalizeMailAddress).
CREATE INDEX applications_resume_idx ON applications (bank_code, application_type, lower(btrim(mail_address)), updated_at DESC);
-- The retention purge deletes applications not completed and not written for longer than their bank keeps them.
CREATE INDEX applications_updated_idx ON applications (updated_at) WHERE application_completed_at IS NULL;
