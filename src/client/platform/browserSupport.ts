/**
 * Browser support check of the landing pages (spec section 4). Pure: it only reads the
 * user-agent string it is given, so it is easy to test with real UA strings.
 *
 * - inAppBrowser: a browser embedded in another app. Camera capture and the external identity
 *   check do not work reliably there, so the applicant is asked to open Safari or Chrome.
 * - notPhone: tablets and desktops. The service is built for smartphones; the warning can be
 *   closed.
 */
export type BrowserSupport = 'supported' | 'inAppBrowser' | 'notPhone';

/** Apps whose user agent carries their own token, on any platform. */
const IN_APP_TOKENS: readonly RegExp[] = [
  /\bGSA\//, // Google app
  /YJApp/, // Yahoo! JAPAN app (YJApp-IOS / YJApp-ANDROID)
  /\bLine\//, // LINE (the word boundary keeps e.g. "Online/" out)
  /Instagram/,
  /FBAN|FBAV/, // Facebook
];

export function checkBrowser(userAgent: string): BrowserSupport {
  if (IN_APP_TOKENS.some((token) => token.test(userAgent))) return 'inAppBrowser';

  const iPhone = /iPhone/.test(userAgent);
  const android = /Android/.test(userAgent);

  // iOS in-app web views (WKWebView) do not add "Safari"; Safari, Chrome (CriOS), Edge and
  // Firefox for iPhone all do.
  if (iPhone && !/Safari/.test(userAgent)) return 'inAppBrowser';
  // Android: no Chrome token, or the Chrome-based system WebView ("; wv)").
  if (android && (!/Chrome/.test(userAgent) || /; wv\)/.test(userAgent))) return 'inAppBrowser';

  // Phones: every iPhone, and Android with "Mobile" (Android tablets leave it out).
  // iPad (and iPadOS, which poses as a Mac) and desktops are not phones.
  if (iPhone || (android && /Mobile/.test(userAgent))) return 'supported';
  return 'notPhone';
}
