// The device part of the notification settings panel (spec 1 "Notification settings panel"):
// browser support, permission and subscription status, the request-permission and test
// buttons. Push needs JavaScript by nature (DESIGN §8); without it the panel says so.
import { useEffect, useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { Alert } from '../ui/form.tsx';

type Support = { supported: boolean; permission: NotificationPermission | 'unsupported'; serviceWorker: boolean };

function readSupport(): Support {
  const supported = typeof window !== 'undefined' && 'Notification' in window;
  return {
    supported,
    permission: supported ? Notification.permission : 'unsupported',
    serviceWorker: typeof navigator !== 'undefined' && 'serviceWorker' in navigator,
  };
}

export function NotificationDevice({ deviceLabel, isIos }: { deviceLabel: string; isIos: boolean }) {
  const hydrated = useHydrated();
  const [support, setSupport] = useState<Support | null>(null);
  const [message, setMessage] = useState<{ title: string; text: string; tone: 'info' | 'error' | 'success' } | null>(null);
  useEffect(() => setSupport(readSupport()), []);

  const requestPermission = async () => {
    if (!support?.supported) {
      setMessage({ title: 'Not Supported', text: 'This browser does not support notifications.', tone: 'error' });
      return;
    }
    const permission = await Notification.requestPermission();
    setSupport(readSupport());
    if (permission === 'granted') setMessage({ title: 'Notifications Enabled', text: 'This browser may now show notifications.', tone: 'success' });
    else if (permission === 'denied') setMessage({ title: 'Permission Denied', text: 'Please enable notifications in your browser settings', tone: 'error' });
  };

  return (
    <div className="space-y-3" data-testid="notification-device">
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <dt className="text-slate-500">Device</dt>
        <dd className="col-span-2 text-slate-900">{deviceLabel}</dd>
        <dt className="text-slate-500">Permission</dt>
        <dd className="col-span-2 text-slate-900" data-testid="notification-permission">
          {!hydrated ? 'Unknown (JavaScript is off)' : support ? (support.supported ? support.permission : 'Not supported') : 'Checking…'}
        </dd>
        <dt className="text-slate-500">Subscription</dt>
        <dd className="col-span-2 text-slate-900">Not subscribed (push delivery is not available yet)</dd>
      </dl>
      {!hydrated ? (
        <Alert tone="info" title="Push notifications need JavaScript">
          Push notifications are delivered by your browser and need JavaScript, which is turned off. Your other notification settings below still save.
        </Alert>
      ) : support && !support.supported ? (
        <Alert tone="warning" title="Not Supported">This browser does not support notifications.</Alert>
      ) : support?.permission === 'denied' ? (
        <Alert tone="warning" title="Permission Denied">Please enable notifications in your browser settings</Alert>
      ) : null}
      {isIos ? (
        <Alert tone="info" title="Using an iPhone or iPad?">Add Group Finance Hub to your Home Screen (Share → Add to Home Screen) to receive notifications.</Alert>
      ) : null}
      {hydrated ? (
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={requestPermission} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50">
            Request Permission
          </button>
          <button type="button" disabled title="Not available yet" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-400">
            Send Test Notification (not available yet)
          </button>
        </div>
      ) : null}
      {message ? <Alert tone={message.tone} title={message.title}>{message.text}</Alert> : null}
    </div>
  );
}
