/**
 * Everything the browser keeps between pages of one application. Session storage dies with
 * the tab, which is what the spec wants for the token; the workplace and invitation codes from
 * the landing URL live 7 days in cookies so that a later visit still carries them.
 */
export const sessionKeys = {
  bankCode: 'bankCode',
  authenticationToken: 'authenticationToken',
  deviceId: 'appDeviceId',
  channel: 'channel',
  applicationType: 'applicationType',
  /** The version of the flow the application runs (set at the e-mail check; runtime/flows.ts). */
  flowVersion: 'flowVersion',
  invitation: 'invitation',
  /** The application's revision the page last read or wrote (ADR 0030). */
  revision: 'applicationRevision',
} as const;
export type SessionKey = keyof typeof sessionKeys;

export const session = {
  get(key: SessionKey): string | null {
    return sessionStorage.getItem(sessionKeys[key]);
  },
  set(key: SessionKey, value: string): void {
    sessionStorage.setItem(sessionKeys[key], value);
  },
  remove(key: SessionKey): void {
    sessionStorage.removeItem(sessionKeys[key]);
  },
  clear(): void {
    sessionStorage.clear();
  },
};

/** What the server answers when the browser enters an application (the e-mail check). */
export interface EnteredApplication {
  authenticationToken: string;
  /** The version of the flow the application runs: the page runs that one (runtime/flows.ts). */
  flowVersion: string;
}

/** Keeps what every later page of the application needs: its token and its flow version. */
export function keepApplicationSession({ authenticationToken, flowVersion }: EnteredApplication): void {
  session.set('authenticationToken', authenticationToken);
  session.set('flowVersion', flowVersion);
}

export const cookieNames = { workplace: 'workplace', invitation: 'invitation' } as const;
export type CookieName = keyof typeof cookieNames;

const SEVEN_DAYS_SECONDS = 7 * 24 * 60 * 60;

export const cookies = {
  get(name: CookieName): string | null {
    const prefix = `${cookieNames[name]}=`;
    const hit = document.cookie.split('; ').find((part) => part.startsWith(prefix));
    return hit ? decodeURIComponent(hit.slice(prefix.length)) : null;
  },
  set(name: CookieName, value: string): void {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${cookieNames[name]}=${encodeURIComponent(value)}; Max-Age=${SEVEN_DAYS_SECONDS}; Path=/; SameSite=Lax${secure}`;
  },
  remove(name: CookieName): void {
    document.cookie = `${cookieNames[name]}=; Max-Age=0; Path=/; SameSite=Lax`;
  },
};
