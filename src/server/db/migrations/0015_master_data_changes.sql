-- The banks' occupations and branches are read by every form step that offers them and by
-- their pages' lookups: each process keeps them in memory (masterdata/cached.ts) and drops its
-- copy on this notice (the trigger function of 0011), so a seed written while servers run
-- (npm run seed on a shared PostgreSQL) shows in every process within moments.
CREATE TRIGGER occupations_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON occupations
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();

CREATE TRIGGER branches_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON branches
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
