-- The application's row says whether its PIN is set: POST /api/pin sets it in the transaction
-- that stores the PIN, under the row's lock. A form step then stores its answers in one
-- statement that touches the row only while pin_set is false (src/server/forms/documents.ts).
-- When that statement waits for the PIN's lock, PostgreSQL re-checks its WHERE on the row as
-- the PIN's transaction left it; a NOT EXISTS on application_pins alone would be read in the
-- statement's earlier snapshot and miss the PIN, so it needed a lock and a second statement.
ALTER TABLE applications ADD COLUMN pin_set boolean NOT NULL DEFAULT false;
UPDATE applications SET pin_set = true WHERE id IN (SELECT application_id FROM application_pins);
