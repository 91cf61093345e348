// Settings: "Turn on notifications on this device". The browser asks for its permission
// only after that click; the device's push subscription then goes to the server, which
// pushes through the task worker (floor.webpush). The service worker (/sw.js) shows them.
(() => {
  const box = document.querySelector("[data-webpush]");
  if (!box) return;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!supported) return;
  box.hidden = false;
  const unsupported = document.querySelector("[data-webpush-unsupported]");
  if (unsupported) unsupported.hidden = true;
  const status = box.querySelector("[data-webpush-status]");
  const say = (text) => {
    if (status) status.textContent = text;
  };

  const keyBytes = (base64url) => {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const csrfToken = () => {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  };
  const deviceLabel = () => {
    const ua = navigator.userAgent;
    const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox"
      : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
    const system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS"
      : /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
    return system ? `${browser}, ${system}` : browser;
  };

  class Refused extends Error {}

  const subscribe = async () => {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      say(gettext("Notifications are blocked for this site in your browser's settings."));
      return;
    }
    const registration = await navigator.serviceWorker.ready;
    const subscription = (await registration.pushManager.getSubscription())
      || (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.key),
      }));
    const keys = subscription.toJSON().keys || {};
    const form = new FormData();
    form.append("endpoint", subscription.endpoint);
    form.append("p256dh", keys.p256dh || "");
    form.append("auth", keys.auth || "");
    form.append("label", deviceLabel());
    const response = await fetch(box.dataset.url, {
      method: "POST",
      body: form,
      headers: { "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
    });
    if (!response.ok) {
      // The server says why in its own words (translated): too many devices, say.
      const answer = await response.json().catch(() => ({}));
      throw new Refused(answer.error || "");
    }
    window.location.reload();
  };

  box.addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || !event.target.closest("[data-webpush-on]")) return;
    say(gettext("Turning notifications on…"));
    subscribe().catch((error) => {
      const why = error instanceof Refused ? error.message : "";
      say(why || gettext("This device could not be subscribed. Try again later."));
    });
  });
})();
