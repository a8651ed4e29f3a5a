-- A PIN binding is now signed for its application (an HMAC under the pepper with the time it was
-- issued; src/server/pin/binding.ts, ADR 0016) instead of stored: GET /api/public-key writes
-- nothing, and POST /api/pin checks the binding before any statement. The bindings stored so far
-- were valid for an hour at most; an applicant whose page holds one fetches a new key and binding
-- after the refusal, as after any refused PIN.
DROP TABLE pin_bindings;
