// The sign-in's token exchange, started as the page arrives rather than once the app's scripts have
// loaded and run (issue 39): the host's JWT is in the iframe URL, so nothing else has to come first.
// client/api/auth.ts takes this answer when the app would have asked exactly the same; the product
// here is a guess from the location's name (signInTarget decides), and a wrong guess is asked again.
(() => {
  const { pathname, search } = window.location;
  const jwt = new URLSearchParams(search).get("jwt");
  const location = /^\/authenticate\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!jwt || !location) return;
  const body = JSON.stringify({
    fullPath: pathname + search,
    method: "GET",
    product: location.startsWith("confluence-") ? "confluence" : "jira",
  });
  const response = fetch("/api/exchange-token", {
    method: "POST",
    headers: { Authorization: `JWT ${jwt}`, "Content-Type": "application/json", Accept: "application/json" },
    body,
  });
  // Unused when the app asks something else; its failure is the app's to report when it takes it.
  response.catch(() => undefined);
  window.rmcloudEarlySignIn = { jwt, body, response };
})();
