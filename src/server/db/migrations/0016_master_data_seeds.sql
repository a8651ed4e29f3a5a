-- What each bank's master-data rows were last seeded from (masterdata/seed.ts): a SHA-256 of
-- its banks/<code>/ files, the schema file and the seed's format version. A start whose files
-- hash the same skips the bank instead of replacing every row (issue 13: about a second of
-- each restart). Written in the seed's own transaction, so it never names rows not committed.
CREATE TABLE master_data_seeds (
  bank_code varchar(4) PRIMARY KEY,
  fingerprint varchar(64) NOT NULL,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
