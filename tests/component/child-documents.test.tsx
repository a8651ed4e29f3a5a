import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import ChildEkycPreparation from '../../src/client/screens/ChildEkycPreparation';
import IdentificationDocuments from '../../src/client/screens/IdentificationDocuments';
import SupplementaryDocuments from '../../src/client/screens/SupplementaryDocuments';
import { SUPPLEMENTARY_DOCUMENTS } from '../../src/client/screens/child-documents/documents';
import { inRouter, screenProps } from './fixtures';
import { FakeXhr, heic, smallJpeg, useUploadFakes } from './upload-fakes';

useUploadFakes();

const uploadButton = () => screen.getByRole('button', { name: /この写真でアップロード/ }) as HTMLButtonElement;
const location = () => screen.queryByTestId('location')?.textContent;

describe('/child/ekyc-preparation', () => {
  it('explains the card, the supplementary documents and the parent check, then starts the capture', async () => {
    const props = screenProps('/child/ekyc-preparation');
    render(inRouter('/child/ekyc-preparation', <ChildEkycPreparation {...props} />));
    expect(screen.getByText('お子さまのマイナンバーカード（個人番号カード）')).toBeTruthy();
    expect(screen.getByText(/住民票の写し（発行から6か月以内/)).toBeTruthy();
    expect(screen.getByText(/出生届出済証明の印/)).toBeTruthy();
    expect(screen.getByText(/親権者さまの本人確認を/)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: '撮影をはじめる' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' });
  });
});

describe('/child/ekyc-identification-documents', () => {
  const url = '/child/ekyc-identification-documents';
  const cameraInput = () => screen.getByLabelText('マイナンバーカードを撮影する') as HTMLInputElement;

  it('shows the instructions and the rear camera, uploads the card as INDIVIDUAL_NUMBER_CARD and moves on', async () => {
    const props = screenProps(url);
    render(inRouter(url, <IdentificationDocuments {...props} />));
    expect(screen.getByText(/ケース（カバー）から取り出して/)).toBeTruthy();
    expect(screen.getByText(/白以外の/)).toBeTruthy();
    expect(screen.getByText(/四隅/)).toBeTruthy();
    expect(cameraInput().getAttribute('capture')).toBe('environment');

    const user = userEvent.setup();
    const file = smallJpeg('card.jpg');
    await user.upload(cameraInput(), file);
    await screen.findByRole('img', { name: '撮影したお子さまのマイナンバーカード' });
    expect(uploadButton().disabled).toBe(false);
    await user.click(uploadButton());

    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    const xhr = FakeXhr.instances[0] as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/documents');
    expect(xhr.body?.get('type')).toBe('INDIVIDUAL_NUMBER_CARD');
    const sent = xhr.body?.get('image');
    expect(sent instanceof Blob && sent.size).toBe(file.size);
    xhr.respond(201, { id: 1, type: 'INDIVIDUAL_NUMBER_CARD' });
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(props.send).toHaveBeenCalledTimes(1);
  });

  it('goes to /child/error when the server refuses the photo', async () => {
    const props = screenProps(url);
    render(inRouter(url, <IdentificationDocuments {...props} />));
    const user = userEvent.setup();
    await user.upload(cameraInput(), smallJpeg());
    await user.click(await screen.findByRole('button', { name: /この写真でアップロード/ }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    FakeXhr.instances[0]?.respond(422, { message: 'unreadable' });
    await waitFor(() => expect(location()).toBe('/child/error'));
    expect(props.send).not.toHaveBeenCalled();
  });

  it('goes to /child/error when the photo cannot be converted (HEIC)', async () => {
    const props = screenProps(url);
    render(inRouter(url, <IdentificationDocuments {...props} />));
    const user = userEvent.setup();
    await user.upload(cameraInput(), heic());
    await user.click(await screen.findByRole('button', { name: /この写真でアップロード/ }));
    await waitFor(() => expect(location()).toBe('/child/error'));
    expect(FakeXhr.instances).toHaveLength(0);
  });

  it('goes back', async () => {
    const props = screenProps(url);
    render(inRouter(url, <IdentificationDocuments {...props} />));
    await userEvent.setup().click(screen.getByRole('button', { name: '戻る' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });
});

describe('/child/ekyc-supplementary-documents', () => {
  const url = '/child/ekyc-supplementary-documents';

  it('asks for a choice before offering the camera', () => {
    render(inRouter(url, <SupplementaryDocuments {...screenProps(url)} />));
    expect(screen.getByRole('group', { name: '撮影する書類を選択してください' })).toBeTruthy();
    expect((screen.getByLabelText('住民票の写し') as HTMLInputElement).type).toBe('radio');
    expect((screen.getByLabelText('母子健康手帳') as HTMLInputElement).type).toBe('radio');
    expect(screen.queryByLabelText(/を撮影する$/)).toBeNull();
  });

  for (const document of SUPPLEMENTARY_DOCUMENTS) {
    it(`${document.name}: the three checks gate the upload, which sends ${document.type} and moves on`, async () => {
      const props = screenProps(url);
      render(inRouter(url, <SupplementaryDocuments {...props} />));
      const user = userEvent.setup();
      await user.click(screen.getByLabelText(document.name));
      expect(screen.getByRole('heading', { name: `${document.name}の撮影のしかた` })).toBeTruthy();
      const input = screen.getByLabelText(document.captureLabel) as HTMLInputElement;
      expect(input.getAttribute('capture')).toBe('environment');
      await user.upload(input, smallJpeg());
      await screen.findByRole('img', { name: document.previewAlt });

      expect(document.confirmations).toHaveLength(3);
      for (const text of document.confirmations) {
        expect(uploadButton().disabled).toBe(true);
        await user.click(screen.getByLabelText(text));
      }
      expect(uploadButton().disabled).toBe(false);
      await user.click(uploadButton());

      await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
      const xhr = FakeXhr.instances[0] as FakeXhr;
      expect(xhr.body?.get('type')).toBe(document.type);
      xhr.respond(201, { id: 2, type: document.type });
      await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    });
  }

  it('shows the checks of the document chosen, and a new choice starts over', async () => {
    render(inRouter(url, <SupplementaryDocuments {...screenProps(url)} />));
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('母子健康手帳'));
    await user.upload(screen.getByLabelText('母子健康手帳を撮影する'), smallJpeg());
    await screen.findByLabelText('出生届出済証明の印が写っている');
    expect(screen.queryByLabelText('発行から6か月以内である')).toBeNull();

    await user.click(screen.getByLabelText('住民票の写し'));
    expect(screen.queryByRole('heading', { name: '撮影した写真の確認' })).toBeNull();
    await user.upload(screen.getByLabelText('住民票の写しを撮影する'), smallJpeg());
    await screen.findByLabelText('発行から6か月以内である');
    expect(screen.getByLabelText('本籍・個人番号の記載が省略されている')).toBeTruthy();
    expect(screen.queryByLabelText('出生届出済証明の印が写っている')).toBeNull();
  });

  it('goes to /child/error when the server refuses the photo', async () => {
    const props = screenProps(url);
    render(inRouter(url, <SupplementaryDocuments {...props} />));
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('住民票の写し'));
    await user.upload(screen.getByLabelText('住民票の写しを撮影する'), smallJpeg());
    await screen.findByRole('heading', { name: '撮影した写真の確認' });
    for (const text of SUPPLEMENTARY_DOCUMENTS[0]?.confirmations ?? []) await user.click(screen.getByLabelText(text));
    await user.click(uploadButton());
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    FakeXhr.instances[0]?.respond(500, { message: 'failed' });
    await waitFor(() => expect(location()).toBe('/child/error'));
    expect(props.send).not.toHaveBeenCalled();
  });

  it('retakes and goes back', async () => {
    const props = screenProps(url);
    render(inRouter(url, <SupplementaryDocuments {...props} />));
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('母子健康手帳'));
    const input = screen.getByLabelText('母子健康手帳を撮影する') as HTMLInputElement;
    await user.upload(input, smallJpeg());
    await screen.findByRole('heading', { name: '撮影した写真の確認' });
    const click = vi.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: '撮り直す' }));
    expect(click).toHaveBeenCalled();
    expect(screen.queryByRole('heading', { name: '撮影した写真の確認' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '戻る' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });
});
