-- Beside each form's answers, the label of each chosen value as the page offered it (the
-- option's title, the bank's branch or purpose name): the bank receives what the applicant
-- chose, not only its code. A form stored before has none (an empty object).
ALTER TABLE application_forms ADD COLUMN labels jsonb NOT NULL DEFAULT '{}'::jsonb;
