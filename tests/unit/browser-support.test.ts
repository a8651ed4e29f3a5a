import { describe, expect, it } from 'vitest';
import { checkBrowser, type BrowserSupport } from '../../src/client/platform/browserSupport';

/** Real user-agent strings, grouped by the verdict spec section 4 asks for. */
const cases: Array<[string, string, BrowserSupport]> = [
  // Supported: the phone's own browsers.
  ['Safari on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'supported'],
  ['Chrome on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1', 'supported'],
  ['Edge on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/125.2535.60 Mobile/15E148 Safari/605.1.15', 'supported'],
  ['Chrome on Android', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36', 'supported'],
  ['Samsung Internet', 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 'supported'],

  // In-app browsers.
  ['LINE on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0', 'inAppBrowser'],
  ['LINE on Android', 'Mozilla/5.0 (Linux; Android 13; SO-51C Build/64.1.C.0.141; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36 Line/14.9.1/IAB', 'inAppBrowser'],
  ['Instagram on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 335.0.3.20.85 (iPhone14,5; iOS 17_5; ja_JP; ja; scale=3.00; 1170x2532; 611553451)', 'inAppBrowser'],
  ['Instagram on Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240605.024; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36 Instagram 335.0.0.39.93 Android (34/14; 420dpi; 1080x2205; Google/google; Pixel 8; shiba; shiba; ja_JP; 612134011)', 'inAppBrowser'],
  ['Facebook on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/469.0.0.36.109;FBBV/609925425;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBID/phone;FBLC/ja_JP;FBOP/5]', 'inAppBrowser'],
  ['Facebook on Android', 'Mozilla/5.0 (Linux; Android 13; SH-53C Build/S9220; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/470.0.0.48.109;]', 'inAppBrowser'],
  ['Google app on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/322.0.648915268 Mobile/15E148 Safari/604.1', 'inAppBrowser'],
  ['Google app on Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36 GSA/15.24.30.29.arm64', 'inAppBrowser'],
  ['Yahoo! JAPAN app on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 YJApp-IOS jp.co.yahoo.ipn.appli/4.62.1', 'inAppBrowser'],
  ['Yahoo! JAPAN app on Android', 'Mozilla/5.0 (Linux; Android 13; SC-52C Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36 YJApp-ANDROID jp.co.yahoo.android.yjtop/3.155.0', 'inAppBrowser'],
  ['an iOS app web view without Safari', 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', 'inAppBrowser'],
  ['an Android system WebView', 'Mozilla/5.0 (Linux; Android 12; SO-52B Build/61.1.F.1.170; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36', 'inAppBrowser'],
  ['Firefox on Android (no Chrome token)', 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0', 'inAppBrowser'],

  // Not phones.
  ['Safari on iPad (iPadOS poses as a Mac)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'notPhone'],
  ['Safari on an older iPad', 'Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1', 'notPhone'],
  ['Chrome on an Android tablet', 'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Safari/537.36', 'notPhone'],
  ['Chrome on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'notPhone'],
  ['Edge on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0', 'notPhone'],
  ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'notPhone'],
  ['an empty user agent', '', 'notPhone'],
];

describe('checkBrowser', () => {
  it.each(cases)('%s', (_name, userAgent, expected) => {
    expect(checkBrowser(userAgent)).toBe(expected);
  });

  it('does not take "Online/" for the LINE app', () => {
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 Online/1.0';
    expect(checkBrowser(ua)).toBe('supported');
  });
});
