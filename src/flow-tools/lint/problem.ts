export interface FlowProblem {
  /** As given by the caller, e.g. "flows/general.json". */
  file: string;
  /** JSON pointer (RFC 6901) of the offending value; "" for the whole file. */
  pointer: string;
  /** 1-based line of the offending key (or value) in the file text. */
  line: number;
  message: string;
}

/** `flows/general.json:42 /states/personal/on/NEXT: transition target "workplce" does not exist (...)` */
export function formatProblem(p: FlowProblem): string {
  return p.pointer === '' ? `${p.file}:${p.line}: ${p.message}` : `${p.file}:${p.line} ${p.pointer}: ${p.message}`;
}
