-- Issue 15, "completed ones keep only what the bank needs after hand-off" (ADR 0036): once the
-- bank has confirmed receipt and the bank's grace period has passed, the hourly retention job
-- (src/server/plugins/retention.ts, src/server/retention/delivered.ts) removes the
-- application's personal data and leaves a stub.
--
-- The stub keeps no mail address: mail_address becomes nullable, and mail_hash keeps the
-- address's keyed HMAC (the pepper's, as verification_codes.mail_hash), so that resume still
-- answers 409 "already completed" for it. A row has one or the other, never neither.
ALTER TABLE applications ALTER COLUMN mail_address DROP NOT NULL;
ALTER TABLE applications ADD COLUMN mail_hash varchar(64);
ALTER TABLE applications ADD CONSTRAINT applications_mail_or_hash CHECK (mail_address IS NOT NULL OR mail_hash IS NOT NULL);

-- What the bank confirmed: the SHA-256 (hex) of the body it answered 2xx to, the exact bytes
-- that were signed. The body itself was never stored: it is built from the application's data
-- at each attempt, so once that data is gone there is nothing to send again.
ALTER TABLE bank_deliveries ADD COLUMN payload_sha256 varchar(64);
-- When the application's personal data was removed; set once, in the transaction that removes
-- it. A re-send is refused from then on (it updates only rows where this is null).
ALTER TABLE bank_deliveries ADD COLUMN minimized_at timestamptz;

-- The mails about one application (completion, resume), so that they go with its data; null
-- for a verification mail, which comes before any application. ON DELETE CASCADE: a mail
-- about an application the retention deletes is not worth sending either.
ALTER TABLE mail_queue ADD COLUMN application_id uuid REFERENCES applications (id) ON DELETE CASCADE;
CREATE INDEX mail_queue_application ON mail_queue (application_id) WHERE application_id IS NOT NULL;
