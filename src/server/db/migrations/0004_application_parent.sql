-- The child flow's parent (spec section 3, 'Parent (applicationParent)'): the father or mother
-- applying as proxy for a child application. One row per application, written by
-- POST /api/applications/personal/parent (the personal columns) and completed by
-- POST /api/applications/workplace/parent (the occupation and workplace columns, null until
-- then). A table of its own rather than columns of applications: the applications row is the
-- applicant (the child), and GET /api/applications answers the two as application and
-- applicationParent. The occupation name is copied, as for the applicant (see 0002).
CREATE TABLE application_parents (
  application_id uuid PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
  last_name varchar(24) NOT NULL,
  first_name varchar(24) NOT NULL,
  kana_last_name varchar(48) NOT NULL,
  kana_first_name varchar(48) NOT NULL,
  birthday date NOT NULL,
  relationship varchar(6) NOT NULL CHECK (relationship IN ('FATHER', 'MOTHER')),
  mobile_phone_number varchar(13) NOT NULL,
  phone_number varchar(13),
  -- The only value: MINOR ('お子さまが未成年のため').
  proxy_application_reason varchar(10) NOT NULL CHECK (proxy_application_reason IN ('MINOR')),
  occupation_id integer,
  occupation_name varchar(25),
  occupation_other varchar(25),
  workplace_name varchar(25),
  workplace_phone_number varchar(13),
  updated_at timestamptz NOT NULL
);
