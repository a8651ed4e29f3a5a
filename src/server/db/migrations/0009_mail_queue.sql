-- Mail waits here until an SMTP server has taken it, so a slow or failing mail server never
-- slows or fails the request that sends it, and no mail is lost on a restart. Any server
-- process may send a row: it claims it with FOR UPDATE SKIP LOCKED and locked_until. A sent
-- mail's row is deleted (the message holds the address and, for a verification mail, the
-- code); one that cannot be sent before discard_after is deleted too.
CREATE TABLE mail_queue (
  id uuid PRIMARY KEY,
  -- Sending order among mails due at the same moment: first queued, first sent.
  seq bigserial NOT NULL,
  kind varchar(20) NOT NULL,
  message jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  discard_after timestamptz NOT NULL,
  last_error varchar(200),
  created_at timestamptz NOT NULL
);

CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at);
