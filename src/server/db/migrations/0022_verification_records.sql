-- Issue 15, "records the bank must keep": the verification record (確認記録) of every identity
-- check that succeeded (src/server/records/). One row per person checked: the applicant of a
-- GENERAL application; the parent (REPRESENTATIVE) and the child (CHILD) of a CHILD one.
--
-- Append-only, enforced here and not only in code: the trigger below refuses every UPDATE and
-- TRUNCATE, and every DELETE except the retention purge's (purge_verification_records), which
-- may only remove rows older than the legal minimum of 7 years. A correction is a new row whose
-- `corrects` names the row it corrects.
--
-- No foreign key to applications or ekyc_sessions: a record must outlive the application row
-- (an approved application that is never completed is deleted by the retention of unfinished
-- applications after 30 days, ADR 0030; the record stays its 7 years). The record therefore
-- copies what it needs (bank, type, the person's particulars, document hashes).
CREATE TABLE verification_records (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bank_code varchar(4) NOT NULL,
  application_id uuid NOT NULL,
  application_type varchar(8) NOT NULL,
  -- The identity-check session this record comes from (null for a correction made by hand).
  ekyc_session_id integer,
  subject_role varchar(16) NOT NULL CHECK (subject_role IN ('APPLICANT', 'REPRESENTATIVE', 'CHILD')),
  -- The particulars of the person checked as the applicant entered them (name, kana, birthday, address…).
  subject jsonb NOT NULL,
  -- A stable method code (src/server/records/methods.ts), never renamed: the audit reads it.
  method varchar(40) NOT NULL,
  provider varchar(20) NOT NULL,
  -- The provider's id of the check (its session id), to find the provider's own record.
  provider_reference varchar(100) NOT NULL,
  -- What the provider returned (its result or claims), or the document images' references.
  evidence jsonb NOT NULL,
  verified_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL,
  corrects bigint REFERENCES verification_records (id),
  correction_reason text,
  CHECK ((corrects IS NULL) = (correction_reason IS NULL))
);

-- Once per session and person: a replayed callback or a second poll cannot write a second record.
CREATE UNIQUE INDEX verification_records_once ON verification_records (ekyc_session_id, subject_role)
  WHERE corrects IS NULL AND ekyc_session_id IS NOT NULL;
-- A row is corrected at most once (a further correction corrects the correction).
CREATE UNIQUE INDEX verification_records_corrected_once ON verification_records (corrects) WHERE corrects IS NOT NULL;
CREATE INDEX verification_records_application ON verification_records (application_id);
CREATE INDEX verification_records_bank_recorded ON verification_records (bank_code, recorded_at);

-- The floor no purge goes below: 犯罪収益移転防止法 第6条第2項 (7 years).
CREATE FUNCTION verification_records_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cutoff timestamptz := nullif(current_setting('kouza.records_purge_before', true), '')::timestamptz;
BEGIN
  IF TG_OP = 'DELETE' AND cutoff IS NOT NULL AND cutoff <= now() - interval '7 years' AND OLD.recorded_at < cutoff THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'verification_records is append-only: % refused (a correction is a new record)', TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER verification_records_append_only BEFORE UPDATE OR DELETE ON verification_records
  FOR EACH ROW EXECUTE FUNCTION verification_records_guard();
CREATE TRIGGER verification_records_no_truncate BEFORE TRUNCATE ON verification_records
  FOR EACH STATEMENT EXECUTE FUNCTION verification_records_guard();

-- The retention purge: deletes a bank's records of the applications whose newest record was
-- written before `before` (an application's records go together, so a correction never
-- outlives what it corrects), and only those: the trigger lets these rows go because the
-- cutoff is set for this transaction alone. A cutoff less than 7 years ago is taken as 7 years
-- ago (so a clock a little ahead of the database's, or a wrong setting, deletes nothing young).
CREATE FUNCTION purge_verification_records(bank varchar, before timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  cutoff timestamptz := least(before, now() - interval '7 years');
  deleted integer;
BEGIN
  PERFORM set_config('kouza.records_purge_before', cutoff::text, true);
  DELETE FROM verification_records r
   WHERE r.bank_code = bank
     AND r.application_id IN (
       SELECT application_id FROM verification_records WHERE bank_code = bank
        GROUP BY application_id HAVING max(recorded_at) < cutoff);
  GET DIAGNOSTICS deleted = ROW_COUNT;
  PERFORM set_config('kouza.records_purge_before', '', true);
  RETURN deleted;
END
$$;
