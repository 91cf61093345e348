// The menu folds away on narrow screens behind one button. Loaded in <head> without
// defer, so the page is marked before its first paint and the menu never flashes open.
document.documentElement.classList.add("js");

document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element)) return;
  const toggle = event.target.closest("[data-menu-toggle]");
  if (!toggle) return;
  const open = toggle.getAttribute("aria-expanded") !== "true";
  toggle.setAttribute("aria-expanded", String(open));
  document.querySelector(".site-header")?.classList.toggle("is-open", open);
});

// Settings: "Your move" notifications need the player's permission, asked on a click.
document.addEventListener("DOMContentLoaded", () => {
  const offer = document.querySelector("[data-notifications]");
  if (offer && "Notification" in window && Notification.permission === "default") offer.hidden = false;
});
document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element) || !event.target.closest("[data-ask-notifications]")) return;
  Notification.requestPermission().then(() => {
    const offer = document.querySelector("[data-notifications]");
    if (offer) offer.hidden = true;
  });
});

// Copy buttons (data-copy: the id of the field they copy): the field's text goes to the
// clipboard and the button says so for a moment (data-copied). Where the clipboard is
// refused, the field is left selected, ready for the keyboard's copy.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  const field = button ? document.getElementById(button.dataset.copy) : null;
  if (!field) return;
  field.select();
  const said = () => {
    if (!button.dataset.label) button.dataset.label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(() => { button.textContent = button.dataset.label; }, 2000);
  };
  const fallback = () => { if (document.execCommand("copy")) said(); };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(said, fallback);
  else fallback();
});
