-- The request rate limits (@fastify/rate-limit), kept here rather than in each process's
-- memory so that several server processes on one database share them: one row per limit and
-- key, counting the hits of the key's current window. A hit is one INSERT ... ON CONFLICT DO
-- UPDATE (src/server/boundary/rate-limits.ts), atomic across processes; a row whose window has
-- ended starts a new window on its next hit and is deleted now and then. The key is an HMAC
-- (of the client IP, the mail address's own HMAC, the session's hash): no personal data.
CREATE TABLE rate_limits (
  -- The limit: its route ('POST /api/verification-codes/register') or its own name ('mail').
  name varchar(100) NOT NULL,
  key varchar(64) NOT NULL,
  hits integer NOT NULL,
  window_ends_at timestamptz NOT NULL,
  PRIMARY KEY (name, key)
);

CREATE INDEX rate_limits_window_ends_at ON rate_limits (window_ends_at);
