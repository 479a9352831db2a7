/*
 * Appended to atlassian-connect-js's iframe.js when served as /atlassian-connect/all.js.
 * Modules a host defines with defineModule arrive as plain objects (AP.request.send); Jira's
 * own all.js gives apps a callable AP.request(options) returning a promise, AP.sizeToParent() and
 * history change callbacks. This shim gives the app exactly that API on top of the host's modules.
 */
(() => {
  const AP = window.AP;
  if (!AP) return;

  const fakeXhr = (answer) => {
    const headers = answer.headers || {};
    return {
      status: answer.status || 0,
      statusText: answer.statusText || "",
      responseText: answer.body || "",
      getResponseHeader: (name) => headers[String(name).toLowerCase()] ?? null,
      getAllResponseHeaders: () =>
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join("\r\n"),
    };
  };

  if (AP.request && typeof AP.request.send === "function") {
    const transport = AP.request.send;
    const request = (urlOrOptions, moreOptions) => {
      const options = typeof urlOrOptions === "string" ? { ...(moreOptions || {}), url: urlOrOptions } : { ...urlOrOptions };
      const { success, error } = options;
      delete options.success;
      delete options.error;
      return transport(options).then(
        (answer) => {
          const xhr = fakeXhr(answer);
          if (typeof success === "function") success(answer.body, "success", xhr);
          return { body: answer.body, xhr };
        },
        (answer) => {
          const failed = answer && typeof answer === "object" ? answer : { status: 0, statusText: String(answer), body: "" };
          const xhr = fakeXhr(failed);
          if (typeof error === "function") error(xhr, "error", failed.statusText);
          throw { err: failed.body || failed.statusText, xhr };
        },
      );
    };
    AP.request = request;
    if (AP._hostModules) AP._hostModules.request = request;
  }

  // Jira exposes sizeToParent at the top level; the framework keeps it in its env module.
  if (typeof AP.sizeToParent !== "function" && AP.env && typeof AP.env.sizeToParent === "function") {
    AP.sizeToParent = (hideFooter) => AP.env.sizeToParent(Boolean(hideFooter));
  }

  if (AP.history && AP.events) {
    const onChange = (callback) => AP.events.on("history_popstate", (event) => callback(event));
    AP.history.popState = onChange;
    AP.history.subscribeState = (_type, callback) => onChange(callback);
  }
})();
