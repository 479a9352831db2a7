// Loads the host product's bridge script (window.AP) before the app boots. Jira and Confluence pass
// their origin in xdm_e; only Atlassian Cloud sites and a local emulator are trusted as script origins.
(() => {
  const origin = new URLSearchParams(window.location.search).get("xdm_e");
  if (!origin) return;
  const trusted = /^(https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*\.(atlassian\.net|jira\.com|jira-dev\.com)|http:\/\/(localhost|127\.0\.0\.1)(:\d+)?)$/i;
  const base = origin.replace(/\/wiki\/?$/, "").replace(/\/$/, "");
  if (!trusted.test(base)) return;
  const script = document.createElement("script");
  script.src = `${origin.replace(/\/$/, "")}/atlassian-connect/all.js`;
  script.async = false;
  document.head.appendChild(script);
})();
