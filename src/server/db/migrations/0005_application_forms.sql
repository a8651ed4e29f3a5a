-- One document per form step: the answers of a form the generic form-step engine accepts
-- (src/server/forms/), as the schema names them, plus the labels its options store
-- (x-options.labelAs). A new field or a new form needs no migration; columns stay for what
-- the server queries (bank, status, numbers, dates). jsonb runs on PGlite and PostgreSQL.
CREATE TABLE application_forms (
  application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  form varchar(64) NOT NULL,
  answers jsonb NOT NULL CHECK (jsonb_typeof(answers) = 'object'),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (application_id, form)
);

-- The branch and seal-less steps moved onto the engine: their columns become documents.
INSERT INTO application_forms (application_id, form, answers, updated_at)
SELECT id, 'branch', jsonb_build_object('branchCode', branch_code, 'branchName', branch_name), updated_at
FROM applications
WHERE branch_code IS NOT NULL;

INSERT INTO application_forms (application_id, form, answers, updated_at)
SELECT id, 'sealLess', jsonb_build_object('sealLess', seal_less), updated_at
FROM applications
WHERE seal_less IS NOT NULL;

ALTER TABLE applications DROP COLUMN branch_code, DROP COLUMN branch_name, DROP COLUMN seal_less;
