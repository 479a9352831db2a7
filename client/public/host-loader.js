// Loads the host product's bridge script (window.AP) before the app boots. Jira and Confluence pass
// their origin in xdm_e; only Atlassian Cloud sites are trusted as script origins, plus the hosts the
// server names in the page (the local emulator outside production, FRAME_ANCESTORS): a production
// page names none, so it never loads a script from http://localhost.
(() => {
  const origin = new URLSearchParams(window.location.search).get("xdm_e");
  if (!origin) return;
  const atlassian = /^https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*\.(atlassian\.net|jira\.com|jira-dev\.com)$/i;
  const named = (document.querySelector('meta[name="rmcloud-host-origins"]')?.getAttribute("content") ?? "").split(/\s+/).filter(Boolean);
  // A CSP source: scheme://host[:port], where the host may start with "*." and the port may be "*".
  const sourcePattern = (source) =>
    new RegExp(
      `^${source
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace("://*\\.", "://([a-z0-9-]+\\.)+")
        .replace(/:\*$/, "(:\\d+)?")}$`,
      "i",
    );
  const base = origin.replace(/\/wiki\/?$/, "").replace(/\/$/, "");
  if (!atlassian.test(base) && !named.some((source) => sourcePattern(source).test(base))) return;
  const script = document.createElement("script");
  script.src = `${origin.replace(/\/$/, "")}/atlassian-connect/all.js`;
  script.async = false;
  // The first screen waits for the bridge (the host's history and context): a script added by a
  // script is otherwise fetched at low priority, behind the page's own files (issue 39).
  script.fetchPriority = "high";
  document.head.appendChild(script);
})();
