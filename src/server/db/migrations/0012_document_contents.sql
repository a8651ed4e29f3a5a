-- The uploaded images move from DATA_DIR/documents into the database, beside their row, so
-- that every server process on one database reads every document (ADR 0025). A new upload
-- stores its bytes in `content` and no file name. A row uploaded before this migration keeps
-- its `stored_name` until the server imports its file at start
-- (src/server/uploads/import-files.ts: content set, stored_name cleared, the file removed), as
-- SQL cannot read the files. Exactly one of the two is set.
ALTER TABLE documents ADD COLUMN content bytea;
ALTER TABLE documents ALTER COLUMN stored_name DROP NOT NULL;
ALTER TABLE documents ADD CONSTRAINT documents_content_or_file CHECK ((content IS NULL) <> (stored_name IS NULL));
