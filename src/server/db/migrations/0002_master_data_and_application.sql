-- The bank master data behind the workplace and branch steps, and what the general steps
-- /personal to /seal-less store on the application (spec section 3, 'Application').
--
-- The master-data tables are a copy of banks/<code>/*.json, replaced at every start by
-- src/server/masterdata/seed.ts (the files are the source of truth and are reviewed in git).
-- Applications copy the names they need (occupation_name, workplace_name, branch_name) rather
-- than reference these rows, so editing or removing an entry never changes or blocks an
-- application already made.

CREATE TABLE occupations (
  bank_code varchar(4) NOT NULL,
  id integer NOT NULL,
  name varchar(25) NOT NULL,
  display_number integer NOT NULL,
  general_display boolean NOT NULL,
  child_display boolean NOT NULL,
  -- Inclusive age bounds of the child flow's list; null = unbounded.
  min_display_age integer,
  max_display_age integer,
  workplace_required boolean NOT NULL,
  PRIMARY KEY (bank_code, id)
);

CREATE TABLE branches (
  bank_code varchar(4) NOT NULL,
  code varchar(3) NOT NULL,
  name varchar(40) NOT NULL,
  address varchar(100) NOT NULL,
  PRIMARY KEY (bank_code, code)
);

CREATE TABLE workplaces (
  bank_code varchar(4) NOT NULL,
  id integer NOT NULL,
  code varchar(8) NOT NULL,
  name varchar(25) NOT NULL,
  phone_number varchar(13) NOT NULL,
  multiple_accounts varchar(13) NOT NULL CHECK (multiple_accounts IN ('PERMITTED', 'NOT_PERMITTED')),
  PRIMARY KEY (bank_code, id),
  UNIQUE (bank_code, code)
);

CREATE TABLE invitation_codes (
  bank_code varchar(4) NOT NULL,
  code varchar(6) NOT NULL,
  name text NOT NULL,
  enabled boolean NOT NULL,
  -- Last day (Japan time) on which the code is accepted; null = no end.
  valid_until date,
  PRIMARY KEY (bank_code, code)
);

-- Personal data (POST /api/applications/personal). Either the registered address (from the
-- postal data, address_code naming the candidate) or the temporary one is set, never both.
ALTER TABLE applications
  ADD COLUMN last_name varchar(24),
  ADD COLUMN first_name varchar(24),
  ADD COLUMN kana_last_name varchar(48),
  ADD COLUMN kana_first_name varchar(48),
  ADD COLUMN gender varchar(5) CHECK (gender IN ('MAN', 'WOMAN')),
  ADD COLUMN birthday date,
  ADD COLUMN era_birthday varchar(20),
  ADD COLUMN mobile_phone_number varchar(13),
  ADD COLUMN phone_number varchar(13),
  ADD COLUMN postal_number varchar(7),
  ADD COLUMN address_code varchar(20),
  ADD COLUMN address_prefecture varchar(10),
  ADD COLUMN address_municipality varchar(50),
  ADD COLUMN address_section varchar(100),
  ADD COLUMN address_chome varchar(50),
  ADD COLUMN kana_address_prefecture varchar(20),
  ADD COLUMN kana_address_municipality varchar(100),
  ADD COLUMN kana_address_section varchar(200),
  ADD COLUMN kana_address_chome varchar(100),
  -- address / kana_address: the whole registered address as the confirmation page shows it.
  ADD COLUMN address varchar(200),
  ADD COLUMN kana_address varchar(400),
  ADD COLUMN sub_address varchar(20),
  ADD COLUMN kana_sub_address varchar(40),
  ADD COLUMN temp_address_prefecture varchar(10),
  ADD COLUMN temp_address varchar(60),
  ADD COLUMN kana_temp_address varchar(120),
  -- The selected purposes' values, comma-joined in the bank's list order (values have no comma).
  ADD COLUMN utilization_purpose text,
  ADD COLUMN utilization_purpose_other varchar(24),
  ADD COLUMN distance_transaction_reason varchar(50),
  -- Occupation and workplace (POST /api/applications/workplace).
  ADD COLUMN occupation_id integer,
  ADD COLUMN occupation_name varchar(25),
  ADD COLUMN occupation_other varchar(25),
  ADD COLUMN workplace_id integer,
  ADD COLUMN workplace_code varchar(8),
  ADD COLUMN workplace_name varchar(25),
  ADD COLUMN workplace_phone_number varchar(13),
  ADD COLUMN invitation_code varchar(6),
  ADD COLUMN existed_account_branch_code varchar(3),
  ADD COLUMN existed_account_number varchar(7),
  -- Branch and seal (POST /api/applications/branch, /seal-less).
  ADD COLUMN branch_code varchar(3),
  ADD COLUMN branch_name varchar(40),
  ADD COLUMN seal_less boolean,
  -- Set by the completion step (a later issue).
  ADD COLUMN application_number varchar(20),
  ADD COLUMN application_completed_at timestamptz,
  ADD CONSTRAINT applications_one_address CHECK (address_code IS NULL OR temp_address IS NULL);
