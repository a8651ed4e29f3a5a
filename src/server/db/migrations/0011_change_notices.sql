-- Every server process keeps the operators' data (maintenance windows, notices) in memory and
-- drops its copy when the database says the table changed, so a change made through any
-- process, the operator command or plain SQL shows everywhere within moments.
CREATE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('data_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER maintenance_windows_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON maintenance_windows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();

CREATE TRIGGER notifications_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON notifications
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
