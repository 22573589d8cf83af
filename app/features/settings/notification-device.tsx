// The device part of the notification settings panel:
// device info, permission and subscription status, the push toggle for this browser, the
// request-permission and test buttons, the 'Not Supported' and blocked alerts, the install hint
// and the new-version prompt. Push needs JavaScript by nature: without it the panel
// says so, and the switches of the form below still save.
import { useCallback, useEffect, useState } from 'react';
import type { Toast } from '../../platform/lib/toast.ts';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import {
  activateNewVersion,
  currentSubscription,
  pushSupported,
  storeDeviceSettings,
  subscribeBrowser,
  watchForNewVersion,
} from '../notifications/index.ts';
import { Alert } from '../../ui/form.tsx';
import { ToastView } from '../../ui/toast.tsx';
import { useReader, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { failureWords } from './device-api.ts';
import { callApi } from '../../platform/i18n/api-refusal.ts';

type Permission = NotificationPermission | 'unsupported';
export interface DeviceSwitches {
  soundEnabled: boolean;
  vibrationEnabled: boolean;
  showBadge: boolean;
}

const BUTTON =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50 disabled:opacity-60';
const PERMISSION_TEXT: Record<Permission, string> = {
  default: msg('Not asked yet'),
  granted: msg('Granted'),
  denied: msg('Blocked'),
  unsupported: msg('Not Supported'),
};

export function NotificationDevice({
  deviceLabel,
  isIos,
  device,
}: {
  deviceLabel: string;
  isIos: boolean;
  device: DeviceSwitches;
}) {
  const reader = useReader();
  const { t } = reader;
  const hydrated = useHydrated();
  const [permission, setPermission] = useState<Permission | null>(null);
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<Toast | null>(null);
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);

  const refresh = useCallback(async () => {
    if (!pushSupported()) {
      setPermission('unsupported');
      setSubscribed(false);
      return;
    }
    setPermission(Notification.permission);
    setSubscribed((await currentSubscription().catch(() => null)) !== null);
  }, []);

  useEffect(() => {
    void refresh();
    void watchForNewVersion(setWaiting);
  }, [refresh]);

  // sw.js reads this device's sound, vibration and badge switches from Cache Storage.
  useEffect(() => {
    void storeDeviceSettings(device);
  }, [device]);

  const say = (type: Toast['type'], title: string, description?: string) => setToast({ type, title, description });

  /** Asks for permission when it has not been given; true when notifications may be shown. */
  const ensurePermission = async (): Promise<boolean> => {
    if (!pushSupported()) {
      say('error', t('Not Supported'), t('This browser does not support push notifications.'));
      return false;
    }
    const result = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    setPermission(result);
    if (result !== 'granted') {
      say('error', t('Permission Denied'), t('Please enable notifications in your browser settings'));
      return false;
    }
    return true;
  };

  const requestPermission = async () => {
    if (await ensurePermission())
      say('success', t('Notifications Enabled'), t('This browser may now show notifications.'));
  };

  const turnOn = async () => {
    if (!(await ensurePermission())) return;
    try {
      const { publicKey } = await callApi<{ publicKey: string }>('/api/notifications/vapid-public-key');
      const subscription = await subscribeBrowser(publicKey);
      await callApi('/api/notifications/subscribe', subscription.toJSON());
      say('success', t('Subscribed'), t('This browser will receive push notifications.'));
    } catch (error) {
      say(
        'error',
        t('Subscription Failed'),
        failureWords(reader, error) || t('The browser could not subscribe to push notifications.'),
      );
    }
  };

  const turnOff = async () => {
    try {
      const subscription = await currentSubscription();
      const endpoint = subscription?.endpoint;
      await subscription?.unsubscribe();
      await callApi('/api/notifications/unsubscribe', endpoint ? { endpoint } : {});
      say('success', t('Unsubscribed'), t('This browser will no longer receive push notifications.'));
    } catch (error) {
      say('error', t('Unsubscribe Failed'), failureWords(reader, error) || t('The browser could not unsubscribe.'));
    }
  };

  const run = (task: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await task();
    } finally {
      await refresh();
      setBusy(false);
    }
  };

  const sendTest = async () => {
    try {
      const { sent, failed } = await callApi<{ sent: number; failed: number }>('/api/notifications/test', {});
      say(
        failed && !sent ? 'error' : 'success',
        t('Test Sent'),
        failed
          ? t(
              '{sent, plural, one {Sent to # device} other {Sent to # devices}}; {failed, plural, one {# could not be reached.} other {# could not be reached.}}',
              { sent, failed },
            )
          : t('{sent, plural, one {Sent to # device.} other {Sent to # devices.}}', { sent }),
      );
    } catch (error) {
      say('error', t('Test Failed'), failureWords(reader, error));
    }
  };

  if (!hydrated) {
    return (
      <div className="space-y-3" data-testid="notification-device">
        <DeviceFacts
          deviceLabel={deviceLabel}
          permission={t('Unknown (JavaScript is off)')}
          subscription={t('Unknown (JavaScript is off)')}
        />
        <Alert tone="info" title={t('Push notifications need JavaScript')}>
          {t(
            'Push notifications are delivered by your browser and need JavaScript, which is turned off. Your notifications are still in the bell, and the settings below still save.',
          )}
        </Alert>
        {isIos ? <InstallHint /> : null}
      </div>
    );
  }

  const checking = permission === null || subscribed === null;
  return (
    <div className="space-y-3" data-testid="notification-device">
      <DeviceFacts
        deviceLabel={deviceLabel}
        permission={permission ? t(PERMISSION_TEXT[permission]) : t('Checking…')}
        subscription={subscribed === null ? t('Checking…') : subscribed ? t('Subscribed') : t('Not subscribed')}
      />
      {permission === 'unsupported' ? (
        <Alert tone="warning" title={t('Not Supported')}>
          {t('This browser does not support push notifications.')}
        </Alert>
      ) : permission === 'denied' ? (
        <Alert tone="warning" title={t('Permission Denied')}>
          {t('Please enable notifications in your browser settings')}
        </Alert>
      ) : null}
      {isIos ? <InstallHint /> : null}
      {waiting ? (
        <Alert tone="info" title={t('A new version is available')}>
          <span className="flex flex-wrap items-center gap-3">
            {t('A newer version of the notification worker has been installed.')}
            <button type="button" className={BUTTON} onClick={() => activateNewVersion(waiting)}>
              {t('Reload')}
            </button>
          </span>
        </Alert>
      ) : null}
      {permission !== 'unsupported' ? (
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              role="switch"
              className="h-4 w-4 accent-blue-700"
              checked={subscribed === true}
              disabled={busy || checking}
              onChange={(event) => void run(event.target.checked ? turnOn : turnOff)()}
              data-testid="push-toggle"
            />
            {t('Push notifications on this browser')}
          </label>
          <button type="button" className={BUTTON} onClick={() => void run(requestPermission)()} disabled={busy}>
            {t('Request Permission')}
          </button>
          <button type="button" className={BUTTON} onClick={() => void run(sendTest)()} disabled={busy}>
            {t('Send Test Notification')}
          </button>
        </div>
      ) : null}
      {toast ? <ToastView toast={toast} /> : null}
    </div>
  );
}

function DeviceFacts({
  deviceLabel,
  permission,
  subscription,
}: {
  deviceLabel: string;
  permission: string;
  subscription: string;
}) {
  const t = useT();
  return (
    <dl className="grid grid-cols-3 gap-2 text-sm">
      <dt className="text-slate-500">{t('Device')}</dt>
      <dd className="col-span-2 text-slate-900" translate="no">
        {deviceLabel}
      </dd>
      <dt className="text-slate-500">{t('Permission')}</dt>
      <dd className="col-span-2 text-slate-900" data-testid="notification-permission">
        {permission}
      </dd>
      <dt className="text-slate-500">{t('Subscription')}</dt>
      <dd className="col-span-2 text-slate-900" data-testid="notification-subscription">
        {subscription}
      </dd>
    </dl>
  );
}

function InstallHint() {
  const t = useT();
  return (
    <Alert tone="info" title={t('Using an iPhone or iPad?')}>
      {t('Add Group Finance Hub to your Home Screen (Share → Add to Home Screen) to receive notifications.')}
    </Alert>
  );
}
