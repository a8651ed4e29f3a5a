-- The hand-off of each completed application to its bank (src/server/delivery/): one row per
-- application, inserted in the completion's transaction, claimed by any process's worker with
-- FOR UPDATE SKIP LOCKED and locked_until (the mail queue's mechanism, migration 0009), retried
-- with backoff until the bank's endpoint answers 2xx. The row stays once delivered (the
-- operator's list and resend); it holds no personal data, only ids, counts and an error code.
CREATE TABLE bank_deliveries (
  application_id uuid PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  bank_code varchar(4) NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  -- The HTTP status or network error code of the last failure (never a response body).
  last_error varchar(60),
  delivered_at timestamptz,
  created_at timestamptz NOT NULL
);

-- Due rows only: a delivered row has no next attempt.
CREATE INDEX bank_deliveries_due ON bank_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- A delivery queued by any process wakes every process's worker at once (only an insert: the
-- workers' own updates bring nothing new, and an operator's re-send wakes the server it went
-- through, or the others at their poll, DELIVERY_POLL_MS).
CREATE TRIGGER bank_deliveries_changed
  AFTER INSERT ON bank_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
