import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { messages } from '../../domain/messages';
import { normalizeVerificationCode } from '../../domain/rules/verification-code';
import { errorPathOf, pageAfter } from '../../domain/flow/model';
import { api, messageOf, statusOf } from '../api/client';
import { isApplicationsAnswer, rememberStepAnswer } from '../api/application';
import { SchemaForm, type FieldError } from '../forms/SchemaForm';
import { keepApplicationSession, session, type EnteredApplication } from '../platform/session';
import { isResumeJourney, useResumeNavigation } from '../runtime/resume';
import type { ScreenProps } from '../runtime/screen';

/**
 * /verification and /child/verification: mail address, then the 6-digit code sent to it. Reached
 * by 「申込みを再開する」 (runtime/resume.ts), the same page resumes the applicant's application:
 * the code goes to POST /api/verification-codes/resume, and the page to the furthest step.
 */
export default function Verification({ page, flow, settings, snapshot, send, arrivalData }: ScreenProps) {
  const navigate = useNavigate();
  const resuming = isResumeJourney(arrivalData);
  const resume = useResumeNavigation(flow, page, settings);
  const landingPath = flow.pageByState.get(flow.config.meta.landing)?.path;
  const applicationType = flow.config.meta.applicationType;
  const onCodeStep = snapshot.matches({ [page.stateId]: 'code' });
  const [mailAddress, setMailAddress] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const bankCode = session.get('bankCode') ?? '';
  const goToError = () => navigate(errorPathOf(flow), { replace: true });

  const requestCode = async (address: string) => {
    setBusy(true);
    setFieldErrors([]);
    setNotice(null);
    try {
      await api('/verification-codes/register', { method: 'POST', body: { bankCode, mailAddress: address, applicationType } });
      setMailAddress(address);
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 400) setFieldErrors([{ field: 'mailAddress', message: messages.mailAddress }]);
      else if (status === 429) setNotice(messageOf(error) ?? messages.tooManyRequests);
      else goToError();
      return false;
    } finally {
      setBusy(false);
    }
  };

  const verify = async (code: string) => {
    setBusy(true);
    setFieldErrors([]);
    try {
      const entered = await api<EnteredApplication & { path?: string; applications?: unknown }>(resuming ? '/verification-codes/resume' : '/verification-codes/verify', {
        method: 'POST',
        body: {
          bankCode,
          mailAddress,
          verificationCode: normalizeVerificationCode(code),
          channel: session.get('channel'),
          deviceId: session.get('deviceId'),
          applicationType,
          // The application keeps the flow this page runs, if the server still keeps it.
          flowVersion: flow.version,
        },
      });
      keepApplicationSession(entered);
      // A new application as verify answered it: the first page opens with it instead of asking (ADR 0042).
      if (isApplicationsAnswer(entered.applications)) rememberStepAnswer(entered.applications);
      if (resuming && entered.path) resume.goTo(entered.path);
      else send({ type: 'NEXT' });
      // The application runs another version than the page (a resumed one started on an older
      // flow, or the page's was dropped): the next page, reloaded, runs the application's.
      if (flow.version !== undefined && entered.flowVersion !== flow.version) location.reload();
    } catch (error) {
      const status = statusOf(error);
      if (status === 400 || status === 401) {
        setFieldErrors([{ field: 'verificationCode', message: messages.verificationFailed }]);
      } else if (resuming && (status === 404 || status === 409)) {
        // Nothing to resume (none kept, or complete): the server's message says which.
        setNotice(messageOf(error) ?? messages.systemError);
      } else {
        session.remove('deviceId');
        goToError();
      }
    } finally {
      setBusy(false);
    }
  };

  if (!onCodeStep) {
    return (
      <section className="stack">
        {resuming ? (
          <p>お申込みの際にご登録いただいたメールアドレスを入力してください。認証コードをお送りします。認証後、前回の続きからお手続きいただけます。</p>
        ) : (
          <p>お申込みの手続きに使用するメールアドレスを入力してください。入力いただいたメールアドレスに認証コードをお送りします。</p>
        )}
        <p className="hint">
          迷惑メール対策などでメールの受信を制限している方は、「@」以降のドメイン「<span className="break-all">{settings.bank.mailDomain}</span>」からのメールを受信できるよう設定してください。
        </p>
        {notice && (
          <p className="alert" role="alert">
            {notice}
          </p>
        )}
        <SchemaForm
          key="address"
          schemaName="mail-address"
          initialData={mailAddress ? { mailAddress } : {}}
          uiSchema={{
            mailAddress: {
              'ui:title': 'メールアドレス',
              'ui:placeholder': 'example@example.jp',
              'ui:options': { inputType: 'email', autocomplete: 'email', inputMode: 'email' },
            },
          }}
          submitLabel="認証コードを送信する"
          busy={busy}
          fieldErrors={fieldErrors}
          onSubmit={async (data) => {
            if (await requestCode(String(data.mailAddress ?? ''))) send({ type: 'CODE_SENT' });
          }}
        />
        {!resuming && pageAfter(flow, page.path, 'BACK') && (
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'BACK' })}>
            戻る
          </button>
        )}
        {resuming && landingPath && <StartOver path={landingPath} />}
      </section>
    );
  }

  return (
    <section className="stack">
      <p>
        <strong className="break-all">{mailAddress}</strong> 宛に認証コードを送信しました。メールに記載された6桁の認証コードを入力してください。認証コードの有効期限は10分です。
      </p>
      {notice && (
        <p className="alert" role={resuming ? 'alert' : 'status'}>
          {notice}
        </p>
      )}
      <SchemaForm
        key="code"
        schemaName="verification-code"
        uiSchema={{
          verificationCode: {
            'ui:title': '認証コード',
            'ui:options': { autocomplete: 'one-time-code', inputMode: 'numeric' },
          },
        }}
        submitLabel="認証する"
        busy={busy}
        fieldErrors={fieldErrors}
        onSubmit={(data) => verify(String(data.verificationCode ?? ''))}
      />
      <button
        type="button"
        className="button button--link"
        disabled={busy}
        onClick={async () => {
          if (await requestCode(mailAddress)) setNotice('認証コードを再送信しました。');
        }}
      >
        認証コードを再送信する
      </button>
      <button type="button" className="button button--secondary" onClick={() => send({ type: 'BACK' })}>
        メールアドレスの入力に戻る
      </button>
      {resuming && landingPath && <StartOver path={landingPath} />}
    </section>
  );
}

/** On the way to resuming: a new application instead, from the flow's landing page (an entry page). */
function StartOver({ path }: { path: string }) {
  return (
    <Link className="button button--link" to={path}>
      最初からお申込みする
    </Link>
  );
}
