/**
 * What an applicant typed on a page but has not sent yet, kept per page path in session
 * storage while they move back and forth (「戻る」, then 「次へ」 on the page before): the page
 * shows it again instead of the last saved answer. Sending the page drops its draft; leaving
 * the application (the landing page clears session storage) drops them all.
 */
const PREFIX = 'draft:';

export const drafts = {
  get(path: string): unknown {
    const stored = sessionStorage.getItem(PREFIX + path);
    if (stored === null) return undefined;
    try {
      return JSON.parse(stored) as unknown;
    } catch {
      return undefined;
    }
  },
  set(path: string, value: unknown): void {
    sessionStorage.setItem(PREFIX + path, JSON.stringify(value));
  },
  remove(path: string): void {
    sessionStorage.removeItem(PREFIX + path);
  },
};
