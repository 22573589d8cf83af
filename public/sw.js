// Group Finance Hub service worker (registered at /sw.js). It only shows pushed
// notifications and opens their link when clicked: no offline caching, no fetch handler.
// A new version waits until the page asks it to take over (the settings page's prompt).
const VERSION = '2026.11.1';
const DEVICE_CACHE = 'finhub-device';
const DEVICE_KEY = '/__device-settings';
const DEFAULT_DEVICE = { soundEnabled: true, vibrationEnabled: true, showBadge: true };

self.addEventListener('install', () => {
  // Deliberately no skipWaiting(): the page offers the new version first.
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'SKIP_WAITING') self.skipWaiting();
  if (data.type === 'VERSION' && event.ports && event.ports[0]) event.ports[0].postMessage({ version: VERSION });
});

/** The device's sound, vibration and badge switches, as the settings page stored them. */
async function deviceSettings() {
  try {
    const cache = await caches.open(DEVICE_CACHE);
    const stored = await cache.match(DEVICE_KEY);
    if (!stored) return DEFAULT_DEVICE;
    return { ...DEFAULT_DEVICE, ...(await stored.json()) };
  } catch {
    return DEFAULT_DEVICE;
  }
}

/** A link on this site, else the notifications page. */
function safeUrl(value) {
  try {
    const url = new URL(typeof value === 'string' && value ? value : '/notifications', self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL('/notifications', self.location.origin).href;
  } catch {
    return new URL('/notifications', self.location.origin).href;
  }
}

function parsePayload(event) {
  try {
    const data = event.data ? event.data.json() : null;
    if (data && typeof data.title === 'string' && data.title) return data;
  } catch {
    // Not JSON: the generic notification below.
  }
  return { title: 'Group Finance Hub', body: 'You have a new notification', url: '/notifications' };
}

async function showPush(payload) {
  const device = await deviceSettings();
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    tag: typeof payload.tag === 'string' ? payload.tag : undefined,
    data: { url: safeUrl(payload.url), notificationId: payload.notificationId ?? null },
    icon: '/favicon.svg',
    silent: !device.soundEnabled,
    requireInteraction: payload.priority === 'critical',
  };
  if (device.showBadge) options.badge = '/favicon.svg';
  // A silent notification must not vibrate (showNotification would throw).
  if (device.vibrationEnabled && device.soundEnabled) options.vibrate = [100, 50, 100];
  await self.registration.showNotification(payload.title, options);
}

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(parsePayload(event)));
});

/**
 * Shows the notification's link: a window of this site already open there is focused, another
 * window of this site is taken there, and without one a new window opens.
 */
async function openTarget(notification) {
  const target = safeUrl(notification.data && notification.data.url);
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const same = windows.find((client) => client.url === target);
  if (same) return same.focus();
  const ours = windows.find((client) => new URL(client.url).origin === self.location.origin && 'navigate' in client);
  if (ours) {
    const moved = await ours.navigate(target).catch(() => null);
    if (moved) return moved.focus().catch(() => moved);
  }
  return self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openTarget(event.notification));
});
