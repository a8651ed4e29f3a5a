-- The stand-in OpenID provider's own state (src/server/ekyc/oidc-standin-store.ts, the adapter
-- oidc-provider stores through): its sessions, interactions, grants, authorization codes and
-- tokens, one row per (model, id) with the payload oidc-provider hands over, so that every
-- server process serves the same provider and a restart keeps an authorization under way.
-- The payloads hold identifiers and protocol parameters (state, nonce, code challenge), no
-- claims: those are read from the application when the userinfo is asked for.
-- grant_id (the grantable models: codes and tokens), uid (Session) and user_code are copied out
-- of the payload for the adapter's look-ups. expires_at: when oidc-provider said it expires
-- (NULL: it did not say); such rows are not found and are deleted by the hourly retention job.
CREATE TABLE oidc_standin_store (
  model varchar(40) NOT NULL,
  id varchar(200) NOT NULL,
  payload jsonb NOT NULL,
  grant_id varchar(200),
  uid varchar(200),
  user_code varchar(200),
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_standin_store_grant ON oidc_standin_store (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_standin_store_uid ON oidc_standin_store (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_standin_store_user_code ON oidc_standin_store (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_standin_store_expires ON oidc_standin_store (expires_at) WHERE expires_at IS NOT NULL;
