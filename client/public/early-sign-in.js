// The sign-in's token exchange, started as the page arrives rather than once the app's scripts have
// loaded and run (issue 39): the host's JWT is in the iframe URL, so nothing else has to come first.
// client/api/auth.ts takes this answer when the app would have asked exactly the same; the product
// here is a guess from the location's name (signInTarget decides), and a wrong guess is asked again.
(() => {
  const { pathname, search } = window.location;
  const query = new URLSearchParams(search);
  const jwt = query.get("jwt");
  const location = /^\/authenticate\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!jwt || !location) return;
  const body = JSON.stringify({
    fullPath: pathname + search,
    method: "GET",
    product: location.startsWith("confluence-") ? "confluence" : "jira",
  });
  // The server may have made the exchange already while serving the page (server/spa.ts,
  // tokenForPage): its answer is in the page, and nothing need be asked.
  const signedIn = document.querySelector('meta[name="rmcloud-signed-in"]')?.getAttribute("content");
  const response = signedIn
    ? Promise.resolve(new Response(JSON.stringify({ token: signedIn }), { status: 200, headers: { "Content-Type": "application/json" } }))
    : fetch("/api/exchange-token", {
        method: "POST",
        headers: { Authorization: `JWT ${jwt}`, "Content-Type": "application/json", Accept: "application/json" },
        body,
      });
  // Unused when the app asks something else; its failure is the app's to report when it takes it.
  response.catch(() => undefined);
  window.rmcloudEarlySignIn = { jwt, body, response };

  // The page's first reads, as the server wrote them into it for this location (common/firstReads.ts),
  // sent with the exchange's token the moment it is known, as the app's API client would send them:
  // a token in the page sends them now, from this script, not a task later (reading a body is one), when
  // the page's scripts may hold the thread and the page's files the connections.
  // client/api/client.ts takes an answer only for the very request it would make, with the same token.
  const token =
    signedIn ||
    response
      .then((answer) => (answer.ok ? answer.clone().json() : undefined))
      .then(
        (answer) => (typeof answer?.token === "string" ? answer.token : undefined),
        () => undefined,
      );
  const send = (bearer, address) => {
    if (bearer === undefined) return undefined;
    const answer = fetch(address, { headers: { Accept: "application/json", Authorization: `Bearer ${bearer}` } });
    answer.catch(() => undefined);
    return { token: bearer, response: answer, sent: Date.now() };
  };
  const reads = [];
  for (const meta of document.querySelectorAll('meta[name="rmcloud-first-read"]')) {
    if (meta.getAttribute("data-location") !== location) continue;
    let filled = true;
    const address = (meta.getAttribute("content") ?? "").replace(/\{([^}]*)\}/g, (_, name) => {
      const value = query.get(name) ?? "";
      if (!/^\d+$/.test(value)) filled = false;
      return value;
    });
    if (!filled || !address.startsWith("/api/") || reads.some((read) => read.address === address)) continue;
    const read = typeof token === "string" ? Promise.resolve(send(token, address)) : token.then((bearer) => send(bearer, address));
    reads.push({ address, read });
  }
  window.rmcloudFirstReads = reads;
})();
