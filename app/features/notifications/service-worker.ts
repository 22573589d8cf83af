// The browser side of Web Push: registering /sw.js, this browser's subscription,
// the device switches sw.js reads, and the new-version hand-over. Browser-only; every function
// is safe to call where service workers or push are missing (it answers null or false).

export const SW_URL = '/sw.js';
const DEVICE_CACHE = 'finhub-device';
const DEVICE_KEY = '/__device-settings';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

/** Registers /sw.js once per page load; failures (unsupported, blocked) are ignored. */
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(SW_URL, { scope: '/' }).catch(() => {});
}

export async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  return (
    (await navigator.serviceWorker.getRegistration('/')) ??
    (await navigator.serviceWorker.register(SW_URL, { scope: '/' }).catch(() => null))
  );
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Subscribes this browser with the server's VAPID key (the service worker must be ready). */
export async function subscribeBrowser(publicKey: string): Promise<PushSubscription> {
  await navigator.serviceWorker.ready;
  const reg = await registration();
  if (!reg) throw new Error('The service worker could not be registered');
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
}

/** Keeps the sound, vibration and badge switches where sw.js reads them. */
export async function storeDeviceSettings(settings: {
  soundEnabled: boolean;
  vibrationEnabled: boolean;
  showBadge: boolean;
}): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(DEVICE_CACHE);
    await cache.put(
      DEVICE_KEY,
      new Response(JSON.stringify(settings), { headers: { 'Content-Type': 'application/json' } }),
    );
  } catch {
    // Storage unavailable (private mode): sw.js uses the defaults.
  }
}

/**
 * Calls `onWaiting` when a new version of the service worker has been installed and waits to
 * take over (now, or when one arrives while the page is open).
 */
export async function watchForNewVersion(onWaiting: (worker: ServiceWorker) => void): Promise<void> {
  const reg = await registration();
  if (!reg) return;
  if (reg.waiting && navigator.serviceWorker.controller) onWaiting(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const incoming = reg.installing;
    incoming?.addEventListener('statechange', () => {
      if (incoming.state === 'installed' && navigator.serviceWorker.controller) onWaiting(incoming);
    });
  });
}

/** Lets the waiting version take over, and reloads the page once it has. */
export function activateNewVersion(worker: ServiceWorker): void {
  let reloaded = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  });
  worker.postMessage({ type: 'SKIP_WAITING' });
}
