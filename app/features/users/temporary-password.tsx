// 'Temporary Password Created': the password returned by the action, shown once (a panel
// without JavaScript, a dialog with it), in a read-only input with a copy button (JS only).
import { useState } from 'react';
import { Link } from '@remix-run/react';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { FormPanel } from '../../ui/form-panel.tsx';
import { Alert, Button, inputClass } from '../../ui/form.tsx';
import { USER_MESSAGES } from './schemas.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export interface TemporaryPasswordResult {
  id: number;
  username: string;
  email: string;
  /** base64 of the password (see the action). */
  secret: string;
}

function decode(secret: string): string {
  const bytes = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function TemporaryPasswordPanel({ result, closeTo }: { result: TemporaryPasswordResult; closeTo: string }) {
  const t = useT();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const password = decode(result.secret);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      setCopied(true);
    } catch {
      const input = document.getElementById('temporary-password') as HTMLInputElement | null;
      input?.select();
    }
  };
  return (
    <FormPanel title={t(USER_MESSAGES.temporaryTitle)} closeTo={closeTo}>
      <div className="space-y-4" data-testid="temporary-password">
        <p className="text-sm text-slate-700">
          {t('A temporary password was created for {username} ({email}).', {
            username: result.username,
            email: result.email,
          })}{' '}
          {t('Their sessions were ended and they must choose a new password at their next sign-in.')}
        </p>
        <div>
          <label htmlFor="temporary-password" className="block text-sm font-medium text-slate-700">
            {t('Temporary Password')}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id="temporary-password"
              type="text"
              readOnly
              value={password}
              className={`${inputClass} font-mono`}
              onFocus={(e) => e.currentTarget.select()}
            />
            {hydrated ? (
              <Button type="button" variant="secondary" onClick={copy}>
                {copied ? t('Copied') : t('Copy')}
              </Button>
            ) : null}
          </div>
        </div>
        <Alert tone="warning">
          {t('This password is shown only once. Give it to the user through a safe channel.')}
        </Alert>
        <div className="flex justify-end">
          <Link to={closeTo} preventScrollReset className="btn-primary">
            {t('Done')}
          </Link>
        </div>
      </div>
    </FormPanel>
  );
}
