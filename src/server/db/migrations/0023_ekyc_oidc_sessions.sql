-- The relying party's side of an OpenID Connect identity check (src/server/ekyc/oidc.ts): what
-- it sent with the authorization request and must check on the way back (state, nonce, the
-- PKCE verifier), kept in the database so any server process can finish the check and nothing
-- of it is in the browser. used_at is set once, before the code is exchanged, so a replayed
-- authorization response finds the session spent. outcome/reason: how it ended (no personal
-- data: the claims go to the verification record only when they match).
CREATE TABLE ekyc_oidc_sessions (
  session_id varchar(100) PRIMARY KEY,
  state varchar(100) NOT NULL UNIQUE,
  nonce varchar(100) NOT NULL,
  code_verifier varchar(200) NOT NULL,
  redirect_uri text NOT NULL,
  return_url text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  outcome varchar(12),
  reason varchar(200)
);
