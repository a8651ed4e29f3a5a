-- A process that queues a mail or a bank delivery now claims the row in its INSERT (locked_until
-- and attempts set as a worker's claim sets them) and hands it to its own worker once its
-- transaction has committed (ADR 0041). Such a row is no news to any worker: every claim would
-- find it locked. So the notice of 0013 and 0021 goes out only for a row inserted unclaimed
-- (by a caller that leaves the row to the workers), per row with a WHEN instead of per
-- statement; PostgreSQL folds equal notices of one transaction into one.
DROP TRIGGER mail_queue_changed ON mail_queue;
CREATE TRIGGER mail_queue_changed
  AFTER INSERT ON mail_queue
  FOR EACH ROW WHEN (NEW.locked_until IS NULL) EXECUTE FUNCTION notify_data_changed();

DROP TRIGGER bank_deliveries_changed ON bank_deliveries;
CREATE TRIGGER bank_deliveries_changed
  AFTER INSERT ON bank_deliveries
  FOR EACH ROW WHEN (NEW.locked_until IS NULL) EXECUTE FUNCTION notify_data_changed();
