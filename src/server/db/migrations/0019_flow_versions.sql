-- Issue 14, "finish on the flow you started": every application records the version of its
-- flow (a SHA-256 over the flow's canonical JSON, src/server/flows/version.ts), and the server
-- keeps the definition of every version that unfinished applications still run, so a
-- restart on an edited flow (FLOWS_DIR) leaves them on the flow they started with.
--
-- flow_versions: written at start by each server process for the flows of its FLOWS_DIR;
-- `served_until` is that process's lease (renewed every few minutes while it serves the
-- version to new applicants). A row is deleted when its lease has ended and no unfinished,
-- unexpired application runs it (flows/versions.ts). No foreign key from applications: a
-- completed application keeps the hash of the flow it ran after its definition is dropped.
CREATE TABLE flow_versions (
  version varchar(64) PRIMARY KEY,
  application_type varchar(8) NOT NULL,
  -- json, not jsonb: the definition comes back as it was written, keys in the file's order
  -- (jsonb reorders them, and the order of the states is the order of the pages).
  definition json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  served_until timestamptz NOT NULL
);

-- NULL for the applications created before this migration: the first start after it gives
-- the unfinished ones the version of the flow it starts with (the one they were running).
ALTER TABLE applications ADD COLUMN flow_version varchar(64);

-- The sweep asks which versions unfinished applications run.
CREATE INDEX applications_unfinished_flow_version ON applications (flow_version) WHERE application_number IS NULL;
