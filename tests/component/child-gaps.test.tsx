import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FormStep from '../../src/client/screens/FormStep';
import { fakeApi, inRouter, json, screenProps } from './fixtures';


/** The year of `date` on a Japanese calendar: the form counts ages in Japan time. */
function yearInJapan(date: Date): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', year: 'numeric' }).format(date));
}

/** /child/personal on a first visit: a child application with nothing entered yet. */
async function renderChildPersonal() {
  fakeApi({
    'GET /api/applications': () => json({ application: { bankCode: '0177', applicationType: 'CHILD' }, applicationParent: null, forms: {} }),
    'GET /api/occupations': () => json({ occupationList: [] }),
  });
  render(inRouter('/child/personal', <FormStep {...screenProps('/child/personal')} />));
  // The form is shown once the application is read and the schema with its validator loaded (slow on a busy machine).
  return within(await screen.findByRole('group', { name: /^生年月日/ }, { timeout: 10_000 })).getByLabelText('年') as HTMLSelectElement;
}

const optionValues = (select: HTMLSelectElement) => Array.from(select.options, (option) => option.value);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/child/personal: the child’s birthday year', { timeout: 30_000 }, () => {
  it('offers this year − 18 to this year and starts at this year', async () => {
    const thisYear = yearInJapan(new Date());
    const year = await renderChildPersonal();
    expect(optionValues(year)).toEqual(Array.from({ length: 19 }, (_, index) => String(thisYear - 18 + index)));
    expect(year.value).toBe(String(thisYear));
  });

  it('counts the year in Japan time: at 00:30 on New Year’s Day in Japan the new year is offered', async () => {
    // Only Date is faked, so React and user-event keep their real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:30:00+09:00')); // still 2025 in UTC
    const year = await renderChildPersonal();
    expect(year.options[0]?.value).toBe('2008');
    expect(year.options[year.options.length - 1]?.value).toBe('2026');
    expect(year.value).toBe('2026');
  });
});
