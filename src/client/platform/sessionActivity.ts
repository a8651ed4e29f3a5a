/**
 * When the server last recorded this applicant's activity: the time of the last answer to a
 * call that carried the token, less the age that answer gives (X-Session-Activity-Age: the
 * server writes the activity at most every 30 s, ADRs 0042 and 0046). The session check comes
 * before anything else, so even a 400 counts; a 401 does not. The session's end is counted from
 * it (SessionTimeoutWarning).
 */
type Listener = () => void;

let lastAt: number | null = null;
const listeners = new Set<Listener>();

export const sessionActivity = {
  lastAt: (): number | null => lastAt,
  touch(at: number = Date.now()): void {
    lastAt = at;
    for (const listener of listeners) listener();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
