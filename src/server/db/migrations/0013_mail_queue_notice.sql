-- A mail queued by any process wakes every process's mail worker at once (NOTIFY data_changed
-- 'mail_queue', src/server/plugins/mail.ts) instead of at its next poll (MAIL_POLL_MS). Only
-- an insert: the workers' own updates and deletes bring no new mail. Per statement, in the
-- inserting transaction, so the notice goes out at its commit, when the row can be claimed.
CREATE TRIGGER mail_queue_changed
  AFTER INSERT ON mail_queue
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
