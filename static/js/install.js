// The site as an installed app: registers the service worker (/sw.js, served by
// limes_site.installable), which keeps the static files and shows our offline page when
// there is no network. Its address comes from this script's data-service-worker.
(() => {
  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  const url = script.dataset.serviceWorker;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => {});
  });
})();
