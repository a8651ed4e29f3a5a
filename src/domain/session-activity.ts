/**
 * How long ago (milliseconds) the server recorded the applicant's activity, on an answer that
 * did not record it anew (a lookup served to a session checked moments before, ADR 0042): the
 * page counts the session's end from then, not from the answer.
 */
export const SESSION_ACTIVITY_AGE_HEADER = 'x-session-activity-age';
