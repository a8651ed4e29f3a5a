-- Foundation tables: applications, e-mail verification codes, session tokens, and the two
-- operator-managed lists (maintenance windows, notices). Times are timestamptz so PostgreSQL
-- and PGlite agree regardless of the server's time zone. Later issues add columns and tables
-- in new files (0002_…); an applied file is never edited.

CREATE TABLE applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bank_code varchar(4) NOT NULL,
  application_type varchar(8) NOT NULL CHECK (application_type IN ('GENERAL', 'CHILD')),
  mail_address varchar(254) NOT NULL,
  -- Landing query parameters, kept only when well-formed (spec section 9); otherwise null.
  channel varchar(20),
  device_id varchar(36),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Codes are looked up by the HMAC of the address (never the address itself) within a bank and
-- application type; code_hash is an HMAC bound to the row id so a hash cannot be replayed on
-- another row.
CREATE TABLE verification_codes (
  id uuid PRIMARY KEY,
  bank_code varchar(4) NOT NULL,
  application_type varchar(8) NOT NULL CHECK (application_type IN ('GENERAL', 'CHILD')),
  mail_hash varchar(64) NOT NULL,
  code_hash varchar(64) NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX verification_codes_lookup ON verification_codes (bank_code, application_type, mail_hash, created_at DESC);

-- Only the SHA-256 of a token is stored: a database dump does not hand out sessions.
CREATE TABLE auth_tokens (
  token_hash varchar(64) PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_tokens_application ON auth_tokens (application_id);

CREATE TABLE maintenance_windows (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  started_at timestamptz NOT NULL,
  ended_at timestamptz NOT NULL,
  note text,
  CHECK (ended_at > started_at)
);
CREATE INDEX maintenance_windows_end ON maintenance_windows (ended_at);

CREATE TABLE notifications (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bank_code varchar(4) NOT NULL,
  contents text NOT NULL,
  -- null start: shown from now on; null end: shown until removed.
  starts_at timestamptz,
  ends_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX notifications_bank ON notifications (bank_code);
