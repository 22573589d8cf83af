// Local notification settings (stored on the device: sound, vibration, badge, all
// default true) kept in a cookie of this browser, so they save without JavaScript too.
import { createCookie } from '@remix-run/node';

export const DEVICE_DEFAULTS = { soundEnabled: true, vibrationEnabled: true, showBadge: true };
export type DeviceSettings = typeof DEVICE_DEFAULTS;

const deviceCookie = createCookie('__device_notifications', {
  path: '/',
  sameSite: 'lax',
  httpOnly: false,
  maxAge: 400 * 86_400,
});

export async function readDeviceSettings(request: Request): Promise<DeviceSettings> {
  const value = await deviceCookie.parse(request.headers.get('Cookie')).catch(() => null);
  const out = { ...DEVICE_DEFAULTS };
  if (value && typeof value === 'object') {
    for (const key of Object.keys(out) as (keyof DeviceSettings)[])
      if (typeof value[key] === 'boolean') out[key] = value[key];
  }
  return out;
}

export function deviceSettingsCookie(settings: DeviceSettings, secure: boolean): Promise<string> {
  return deviceCookie.serialize(settings, { secure });
}
