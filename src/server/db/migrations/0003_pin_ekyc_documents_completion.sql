-- The end of an application: the cash-card PIN, the identity check (eKYC), the uploaded
-- documents and the completion (application number). Every table hangs off applications and
-- goes with it (ON DELETE CASCADE). Separate tables rather than columns of applications, as
-- GET /api/applications answers the applications row: a PIN ciphertext or a provider session
-- has no business in the browser's copy of the application.

-- One row per public key handed out with GET /api/public-key: the SHA-256 of the random
-- binding the browser encrypts together with the PIN, so a ciphertext made for one
-- application is refused for another. Valid until it expires or the PIN is set.
CREATE TABLE pin_bindings (
  binding_hash varchar(64) PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX pin_bindings_application ON pin_bindings (application_id);

-- The PIN, only as the browser's RSA-OAEP ciphertext (base64) and the id of the key it was
-- made for: see src/server/routes/pin.ts. The primary key makes a second PIN impossible.
CREATE TABLE application_pins (
  application_id uuid PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  key_id varchar(64) NOT NULL,
  ciphertext text NOT NULL,
  created_at timestamptz NOT NULL
);

-- Identity-check sessions at the provider, newest last (a retry after an error is a new
-- row). status: src/domain/ekyc.ts (1 created, 2 provider processing, 4 banker processing,
-- 8 failed, 9 rejected). started_at is when the applicant left for the provider.
CREATE TABLE ekyc_sessions (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  application_type varchar(8) NOT NULL CHECK (application_type IN ('GENERAL', 'CHILD')),
  provider varchar(20) NOT NULL,
  provider_session_id varchar(100) NOT NULL,
  url text NOT NULL,
  status smallint NOT NULL CHECK (status IN (1, 2, 4, 8, 9)),
  -- The provider approved the person but the bank wants a current-address document.
  supplement boolean NOT NULL DEFAULT false,
  started_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  decided_at timestamptz,
  UNIQUE (provider, provider_session_id)
);
CREATE INDEX ekyc_sessions_application ON ekyc_sessions (application_id, id DESC);

-- The provider simulator's own memory (src/server/ekyc/simulator.ts): what a real provider
-- would keep on its side. outcome is null until the tester decides on the simulator page.
CREATE TABLE ekyc_simulator_sessions (
  session_id varchar(100) PRIMARY KEY,
  application_type varchar(8) NOT NULL CHECK (application_type IN ('GENERAL', 'CHILD')),
  return_url text NOT NULL,
  outcome varchar(12) CHECK (outcome IN ('approve', 'supplement', 'reject', 'pending', 'error')),
  created_at timestamptz NOT NULL,
  decided_at timestamptz
);

-- Uploaded images (POST /api/documents). The file is DATA_DIR/documents/<application_id>/
-- <stored_name>, a name the server made; one per application and type (a new upload of the
-- same type replaces the row and removes the old file).
CREATE TABLE documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  application_id uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  type varchar(30) NOT NULL CHECK (type IN ('INDIVIDUAL_NUMBER_CARD', 'CERTIFICATE_RESIDENCE', 'MATERNITY_HANDBOOK', 'CURRENT_ADDRESS_DOCUMENT')),
  stored_name varchar(100) NOT NULL,
  content_type varchar(20) NOT NULL,
  byte_size integer NOT NULL CHECK (byte_size > 0),
  width integer NOT NULL,
  height integer NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (application_id, type)
);

-- The per-bank, per-day (Japan time) sequence of application numbers
-- <bank code>-<yyMMdd>-<6-digit sequence> (src/server/routes/completion.ts).
CREATE TABLE application_number_counters (
  bank_code varchar(4) NOT NULL,
  day date NOT NULL,
  last_value integer NOT NULL CHECK (last_value BETWEEN 1 AND 999999),
  PRIMARY KEY (bank_code, day)
);

-- One number, one application (NULLs, the applications not yet completed, do not collide).
CREATE UNIQUE INDEX applications_application_number ON applications (application_number);
