import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from '../../src/client/api/client';
import Supplement, { ADDRESS_CONFIRMATIONS, ADDRESS_DOCUMENTS } from '../../src/client/screens/Supplement';
import { inRouter, screenProps } from './fixtures';
import { FakeXhr, heic, smallJpeg, useUploadFakes } from './upload-fakes';

const { revoked } = useUploadFakes();

function renderSupplement() {
  const props = screenProps('/supplement');
  render(inRouter('/supplement', <Supplement {...props} />));
  return props;
}

const cameraInput = () => screen.getByLabelText('現住所確認書類を撮影する') as HTMLInputElement;
const uploadButton = () => screen.getByRole('button', { name: /この写真でアップロード/ }) as HTMLButtonElement;

async function chooseAndConfirm(user: ReturnType<typeof userEvent.setup>, file: File) {
  await user.upload(cameraInput(), file);
  await screen.findByRole('heading', { name: '撮影した写真の確認' });
  for (const text of ADDRESS_CONFIRMATIONS) await user.click(screen.getByLabelText(text));
}

describe('/supplement', () => {
  it('explains the accepted documents and offers the rear camera through a labelled file input', () => {
    renderSupplement();
    for (const name of ADDRESS_DOCUMENTS) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getByText(/6か月以内/, { selector: 'li' })).toBeTruthy();
    const input = cameraInput();
    expect(input.type).toBe('file');
    expect(input.accept).toBe('image/*');
    expect(input.getAttribute('capture')).toBe('environment');
    expect(screen.queryByRole('button', { name: /この写真でアップロード/ })).toBeNull();
  });

  it('previews the photo, requires the three confirmations, uploads with progress and moves on', async () => {
    const props = renderSupplement();
    const user = userEvent.setup();
    const file = smallJpeg();
    await user.upload(cameraInput(), file);
    const preview = await screen.findByRole('img', { name: '撮影した現住所確認書類' });
    expect(preview.getAttribute('src')).toBe('blob:preview-1');
    expect(uploadButton().disabled).toBe(true);
    for (const text of ADDRESS_CONFIRMATIONS) {
      expect(uploadButton().disabled).toBe(true);
      await user.click(screen.getByLabelText(text));
    }
    expect(uploadButton().disabled).toBe(false);
    await user.click(uploadButton());

    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    const xhr = FakeXhr.instances[0] as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/documents');
    expect(xhr.headers.Authorization).toBe('Bearer token-123');
    expect(xhr.body?.get('type')).toBe('CURRENT_ADDRESS_DOCUMENT');
    const sent = xhr.body?.get('image');
    expect(sent instanceof Blob && sent.size).toBe(file.size);

    xhr.progress(512, 1024);
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'));
    expect(screen.getByText('アップロード中です（50%）')).toBeTruthy();
    expect(uploadButton().disabled).toBe(true);
    expect((screen.getByRole('button', { name: '撮り直す' }) as HTMLButtonElement).disabled).toBe(true);

    xhr.respond(201, { id: 7, type: 'CURRENT_ADDRESS_DOCUMENT' });
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(props.send).toHaveBeenCalledTimes(1);
  });

  it('sends the flow to the upload error page when the server refuses the photo', async () => {
    const props = renderSupplement();
    const user = userEvent.setup();
    await chooseAndConfirm(user, smallJpeg());
    await user.click(uploadButton());
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    FakeXhr.instances[0]?.respond(413, { message: 'too large' });
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'FAIL' }));
  });

  it('sends the flow to the upload error page when the photo cannot be converted (HEIC)', async () => {
    const props = renderSupplement();
    const user = userEvent.setup();
    await chooseAndConfirm(user, heic());
    await user.click(uploadButton());
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'FAIL' }));
    expect(FakeXhr.instances).toHaveLength(0);
  });

  it('leaves a 401 to the session handler', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const props = renderSupplement();
    const user = userEvent.setup();
    await chooseAndConfirm(user, smallJpeg());
    await user.click(uploadButton());
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    FakeXhr.instances[0]?.respond(401, { message: 'expired' });
    await waitFor(() => expect(onUnauthorized).toHaveBeenCalledTimes(1));
    expect(props.send).not.toHaveBeenCalled();
  });

  it('retakes: the preview goes (its object URL revoked), the confirmations reset, and the camera opens again', async () => {
    renderSupplement();
    const user = userEvent.setup();
    await chooseAndConfirm(user, smallJpeg('first.jpg'));
    const click = vi.spyOn(cameraInput(), 'click');
    await user.click(screen.getByRole('button', { name: '撮り直す' }));
    expect(click).toHaveBeenCalled();
    await waitFor(() => expect(revoked).toContain('blob:preview-1'));
    expect(screen.queryByRole('heading', { name: '撮影した写真の確認' })).toBeNull();

    await user.upload(cameraInput(), smallJpeg('second.jpg'));
    const preview = await screen.findByRole('img', { name: '撮影した現住所確認書類' });
    expect(preview.getAttribute('src')).toBe('blob:preview-2');
    const checks = screen.getByRole('group', { name: /確認事項/ });
    for (const box of within(checks).getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(false);
  });

  it('revokes the preview URL when the page goes away', async () => {
    const { unmount } = render(inRouter('/supplement', <Supplement {...screenProps('/supplement')} />));
    await userEvent.setup().upload(cameraInput(), smallJpeg());
    await screen.findByRole('img', { name: '撮影した現住所確認書類' });
    unmount();
    expect(revoked).toEqual(['blob:preview-1']);
  });
});
