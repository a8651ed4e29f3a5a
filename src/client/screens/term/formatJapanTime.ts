/** Date-time formatting for the maintenance period, always in Japan time whatever the device zone. */
const formatter = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "2026年12月1日 0:00": year/month/day hour:minute in Japan time. */
export function formatJapanDateTime(date: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    formatter.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('year')}年${part('month')}月${part('day')}日 ${Number(part('hour'))}:${part('minute')}`;
}

/** "2026年12月1日 0:00 ～ 2026年12月1日 6:00" */
export function formatJapanPeriod(start: Date, end: Date): string {
  return `${formatJapanDateTime(start)} ～ ${formatJapanDateTime(end)}`;
}
