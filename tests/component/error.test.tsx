import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import SystemError from '../../src/client/screens/SystemError';
import { messages } from '../../src/domain/messages';
import { inRouter, screenProps } from './fixtures';

const SYSTEM_ERROR = '申し訳ございません。システムエラーが発生しました。しばらく時間をおいてから再度お試しください。';

describe('/error', () => {
  it('shows the system error text', () => {
    render(inRouter('/error', <SystemError {...screenProps('/error')} />));
    expect(screen.getByText(SYSTEM_ERROR)).toBeTruthy();
    expect(screen.queryByText(messages.unauthorized)).toBeNull();
  });

  it('shows the session-timeout text with id=1, and offers to resume the application', () => {
    render(inRouter('/error?id=1', <SystemError {...screenProps('/error')} />));
    expect(screen.getByText(messages.unauthorized)).toBeTruthy();
    expect(screen.queryByText(SYSTEM_ERROR)).toBeNull();
    expect(screen.getByRole('link', { name: '申込みを再開する' }).getAttribute('href')).toBe('/verification');
  });

  it('keeps the system error page as the spec has it: one way on, 再申込みへ', () => {
    render(inRouter('/error', <SystemError {...screenProps('/error')} />));
    expect(screen.queryByRole('link', { name: '申込みを再開する' })).toBeNull();
  });

  it('keeps the system error text for another id', () => {
    render(inRouter('/error?id=2', <SystemError {...screenProps('/error')} />));
    expect(screen.getByText(SYSTEM_ERROR)).toBeTruthy();
  });

  it('sends RESTART from 再申込みへ', async () => {
    const props = screenProps('/error');
    render(inRouter('/error?id=1', <SystemError {...props} />));
    await userEvent.setup().click(screen.getByRole('button', { name: '再申込みへ' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'RESTART' });
  });
});
