-- Every stored step, the PIN and the identity check update their application's row (updated_at,
-- revision, pin_set). Two indexes held updated_at, so each of those updates wrote a new entry in
-- all five of the table's indexes. With no index on a column such an update changes, and room
-- left on the row's page, PostgreSQL writes it as a heap-only tuple: no index entry at all
-- (ADR 0047).
--
-- Resume finds an applicant's applications by bank, type and address, and sorts the few it
-- finds by their last write; a delivered application's stub has only the address's HMAC, which
-- now has an index of its own, so the two arms of the lookup are both index scans.
DROP INDEX applications_resume_idx;
CREATE INDEX applications_resume_idx ON applications (bank_code, application_type, lower(btrim(mail_address)));
CREATE INDEX applications_resume_stub_idx ON applications (bank_code, application_type, mail_hash) WHERE mail_hash IS NOT NULL;
-- The retention purge looks for unfinished applications by creation: one not written within the
-- retention was created before it too, so the purge bounds created_at and then checks updated_at.
DROP INDEX applications_updated_idx;
CREATE INDEX applications_unfinished_created_idx ON applications (bank_code, created_at) WHERE application_completed_at IS NULL;
-- Room on each page for the updated versions of its rows (new pages; the old fill as rows go).
ALTER TABLE applications SET (fillfactor = 80);
