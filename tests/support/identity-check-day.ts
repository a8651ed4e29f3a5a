/**
 * The day in Japan on which every test server judges the banks' identity-check methods
 * (IDENTITY_CHECK_METHODS_DAY, ADR 0043), and on which the tests that model the server's
 * answers (tests/model/world.ts, tests/component/fixtures.ts) compute them, so that no test
 * depends on the day it runs (the banks' photo-based methods end on 2027-03-31, ADR 0037).
 *
 * A day inside every window the banks configure, when all their methods are offered side by side,
 * and away from the windows' ends: the switch itself is the subject of
 * tests/api/ekyc-methods.test.ts, which runs on the clock, and a bank that moves an end by a few
 * days should fail one test (tests/unit/identity-check-methods.test.ts), not every journey.
 */
export const TEST_IDENTITY_CHECK_DAY = '2027-01-15';
