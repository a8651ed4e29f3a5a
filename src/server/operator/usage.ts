/** The operator command's help text, printed by `npm run operator -- --help` and on a usage error. */
export const usage = `Usage: npm run operator -- <command> [options]

  maintenance add --start <time> --end <time> [--note <text>]
  maintenance list
  maintenance remove --id <n>
  maintenance clear                      remove every window (past, current and future)
  deliveries list                        hand-offs to the banks: pending, failed, delivered (and when
                                         a delivered application's data was removed)
  deliveries resend --application <id>   send one application to its bank again now; refused once its
                                         data was removed, deliveredApplicationRetentionDays (default 7)
                                         after the bank confirmed receipt (docs/adr/0036)
  notification add --bank <code> --contents <text> [--start <time>] [--end <time>]
  notification list [--bank <code>]
  notification remove --id <n>
  flows impact                           applicants at a state the served flows removed, per version
                                         and state, and what "movedStates" does with them
  records export --bank <code> --from <time> --to <time>
                                         verification records written in the period, one JSON
                                         object per line (a bare date as --to includes that day)

Times: ISO 8601, e.g. 2026-12-01T00:00+09:00; without an offset they are Japan time.
A notice without --start shows at once; without --end until it is removed.

Database: DATABASE_URL when set, else DATA_DIR/pglite (default ./data/pglite).
The server may keep running: with PGlite the command is handed to the running server through
its socket DATA_DIR/operator.sock (run this as the user that owns DATA_DIR); when no server is
running it opens DATA_DIR/pglite itself. With DATABASE_URL it always connects directly.`;
