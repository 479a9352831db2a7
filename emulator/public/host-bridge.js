/*
 * The emulated product's side of the AP bridge. Atlassian's connect-host.js (window.connectHost)
 * does the iframe handshake, events, dialogs' events, flags' events, resize and sizeToParent;
 * this file defines what Jira and Confluence define themselves (request, context, user,
 * navigator, history, confluence) and renders dialogs and flags through the framework's
 * provider hooks, as the products' React front ends do, so no AUI is needed.
 */
(() => {
  const config = window.__EMULATOR__;
  const host = window.connectHost;
  const prefix = config.site.prefix;

  const postJson = async (path, body) => {
    const response = await fetch(`${prefix}${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message || `HTTP ${response.status}`);
    return data;
  };

  const promised = (fn) => {
    fn.returnsPromise = true;
    return fn;
  };

  const productOf = (extension) => (extension?.options?.emulatorProduct ? extension.options.emulatorProduct : config.product);

  /** A freshly signed iframe URL for a module of the add-on, with this page's context. */
  const resolveUrl = (addonKey, moduleKey, product, extra, editor) =>
    postJson("/_bridge/iframe-url", {
      addonKey,
      moduleKey,
      product,
      editor: Boolean(editor),
      context: { ...config.context, ...(extra || {}) },
    });

  host.registerContentResolver.resolveByExtension((extension) =>
    resolveUrl(extension.addon_key, extension.key, productOf(extension)).then((answer) => ({
      url: answer.url,
      addon_key: extension.addon_key,
      key: extension.key,
      options: extension.options,
    })),
  );

  // ---- request: REST calls to the product as the signed-in user (session cookie) ----
  host.defineModule("request", {
    send: promised(async (options, _callback) => {
      const contextPath = options.emulatorContextPath ?? config.contextPath;
      const headers = { Accept: options.accept || "application/json", ...(options.headers || {}) };
      if (options.data !== undefined && options.data !== null)
        headers["Content-Type"] = options.contentType || "application/x-www-form-urlencoded";
      const url = /^https?:/.test(options.url)
        ? options.url
        : `${prefix}${contextPath}${options.url.startsWith("/") ? "" : "/"}${options.url}`;
      const response = await fetch(url, {
        method: (options.type || "GET").toUpperCase(),
        credentials: "same-origin",
        headers,
        body:
          options.data === undefined || options.data === null
            ? undefined
            : typeof options.data === "string"
              ? options.data
              : JSON.stringify(options.data),
      });
      const body = await response.text();
      const answer = {
        status: response.status,
        statusText: response.statusText,
        body,
        headers: Object.fromEntries(response.headers.entries()),
      };
      if (!response.ok) throw answer;
      return answer;
    }),
  });

  // ---- context ----
  host.defineModule("context", {
    getToken: promised(async (_callback) => (await postJson("/_bridge/token", { product: config.product })).token),
    getContext: promised(async (_callback) => {
      const c = config.context;
      if (config.product === "confluence") {
        return {
          confluence: {
            content: c["content.id"] ? { id: c["content.id"], type: "page", version: c["content.version"] || "1" } : undefined,
            space: c["space.key"] ? { key: c["space.key"], id: c["space.id"] } : undefined,
            macro: c["macro.id"] ? { id: c["macro.id"], hash: c["macro.hash"], outputType: "display" } : undefined,
          },
          license: { active: config.license !== "none" },
          url: { displayUrl: `${location.origin}${prefix}/wiki` },
        };
      }
      return {
        jira: {
          project: c["project.id"] ? { id: c["project.id"], key: c["project.key"] } : undefined,
          issue: c["issue.id"] ? { id: c["issue.id"], key: c["issue.key"], issuetype: { id: c["issuetype.id"] } } : undefined,
        },
        license: { active: config.license !== "none" },
        url: { displayUrl: `${location.origin}${prefix}` },
      };
    }),
  });

  // ---- user ----
  host.defineModule("user", {
    getCurrentUser: promised(async (_callback) => ({ atlassianAccountId: config.user.accountId })),
    getTimeZone: promised(async (_callback) => config.user.timeZone),
    getLocale: promised(async (_callback) => "en-US"),
  });

  // ---- navigator ----
  const navigatorUrl = (target, context) => {
    const c = context || {};
    switch (target) {
      case "issue":
        return `${prefix}/browse/${encodeURIComponent(c.issueKey)}`;
      case "contentview":
      case "contentedit":
        return `${prefix}/wiki/pages/viewpage.action?pageId=${encodeURIComponent(c.contentId)}`;
      case "spaceview":
        return `${prefix}/wiki/spaces/${encodeURIComponent(c.spaceKey)}`;
      case "addonmodule": {
        const query = new URLSearchParams(
          config.context["project.id"] ? { "project.id": config.context["project.id"], "project.key": config.context["project.key"] } : {},
        );
        return `${prefix}${config.product === "confluence" ? "/wiki" : ""}/plugins/servlet/ac/${encodeURIComponent(c.addonKey || config.addonKey)}/${encodeURIComponent(c.moduleKey)}?${query}`;
      }
      case "site":
        return `${prefix}${c.relativeUrl || "/"}`;
      case "dashboard":
      case "projectAdminSummary":
        return `${prefix}/`;
      default:
        throw new Error(`Unsupported navigator target ${target}`);
    }
  };
  host.defineModule("navigator", {
    go: (target, context, _callback) => {
      const url = navigatorUrl(target, context);
      if (context?.newTab || context?.target === "_blank") window.open(url, "_blank");
      else location.href = url;
    },
    reload: () => location.reload(),
    getLocation: promised(async (_callback) => ({
      target: config.product === "jira" ? "addonmodule" : "contentview",
      context: config.context,
      href: location.href,
    })),
  });

  // ---- history: the main screen keeps its state in the host URL's fragment (#!state) ----
  const currentState = () => (location.hash.startsWith("#!") ? decodeURIComponent(location.hash.slice(2)) : "");
  const stateUrl = (state) => `${location.pathname}${location.search}#!${encodeURIComponent(state)}`;
  const stateOf = (value) =>
    typeof value === "string" ? value : value && typeof value === "object" && "state" in value ? String(value.state) : String(value ?? "");
  host.defineModule("history", {
    getState: promised(async (type, _callback) => {
      const state = currentState();
      return type === "all"
        ? { hash: state, state, href: location.href, query: Object.fromEntries(new URLSearchParams(location.search)) }
        : state;
    }),
    pushState: (state, _callback) => history.pushState(null, "", stateUrl(stateOf(state))),
    replaceState: (state, _callback) => history.replaceState(null, "", stateUrl(stateOf(state))),
    back: () => history.back(),
    forward: () => history.forward(),
    go: (delta) => history.go(delta),
  });
  let lastUrl = location.href;
  window.addEventListener("popstate", () => {
    const event = { oldURL: lastUrl, newURL: location.href, state: currentState(), hash: currentState() };
    lastUrl = location.href;
    host.broadcastEvent("history_popstate", {}, event);
  });

  // ---- confluence macro calls (macro editors) ----
  const editorOf = (callback) => callback._context.extension.options.emulatorMacro;
  let macroSaved = false;
  // Confluence applies saveMacro at once; here it is a request, so closing waits for it.
  let pendingSave = Promise.resolve();
  host.defineModule("confluence", {
    saveMacro: promised(async (params, body, callback) => {
      const macro = editorOf(callback);
      pendingSave = postJson("/_bridge/macro", { ...macro, params: params || {}, body: body || "" }).then(() => {
        macroSaved = true;
      });
      await pendingSave;
      return true;
    }),
    getMacroData: promised(async (callback) => editorOf(callback).params || {}),
    getMacroBody: promised(async (_callback) => ""),
    closeMacroEditor: (callback) => {
      const addonKey = callback._context.extension.addon_key;
      pendingSave.finally(() => closeDialog(addonKey, true));
    },
  });

  // ---- dialogs through the framework's dialog provider ----
  let dialog = null;
  const dialogProvider = {
    create(options, extension) {
      const backdrop = document.createElement("div");
      backdrop.className = "dialog-backdrop";
      const box = document.createElement("section");
      box.className = `dialog${options.chrome ? "" : " chromeless"}`;
      box.setAttribute("role", "dialog");
      box.style.width = options.width || "50%";
      box.style.height = options.height || "50%";
      box.dataset.addonKey = extension.addon_key;
      box.dataset.moduleKey = extension.key;
      const buttons = {};
      if (options.chrome) {
        const header = document.createElement("header");
        const title = document.createElement("h2");
        title.textContent = options.header || "";
        const close = document.createElement("button");
        close.className = "dialog-close";
        close.setAttribute("aria-label", "Close");
        close.textContent = "×";
        close.onclick = () => closeDialog(extension.addon_key);
        header.append(title, close);
        box.append(header);
      }
      const content = document.createElement("div");
      content.className = "dialog-content";
      box.append(content);
      if (options.chrome) {
        const footer = document.createElement("footer");
        for (const action of options.actions) {
          const button = document.createElement("button");
          button.textContent = action.text;
          button.className = `button button-${action.type || "secondary"}`;
          button.dataset.identifier = action.identifier;
          button.disabled = Boolean(action.disabled);
          button.onclick = () => {
            action.onClick();
            // The add-on closes its dialog on cancel; an unresponsive one is closed by the host.
            if (action.identifier === "cancel") setTimeout(() => dialog?.box === box && closeDialog(extension.addon_key), 1000);
          };
          buttons[action.identifier] = button;
          footer.append(button);
        }
        box.append(footer);
      }
      backdrop.append(box);
      document.body.append(backdrop);
      dialog = { addonKey: extension.addon_key, box, backdrop, buttons, extensionId: null };
      const current = dialog;
      resolveUrl(
        extension.addon_key,
        extension.key,
        productOf(extension),
        extension.options?.customData?.emulatorContext,
        Boolean(extension.options?.emulatorMacro),
      )
        .then((answer) => {
          if (dialog !== current) return;
          const created = host.create({
            addon_key: extension.addon_key,
            key: extension.key,
            url: answer.url,
            options: { ...extension.options, isDialog: true, dialogId: options.id, width: "100%", height: "100%" },
          });
          content.append(created[0]);
          current.extensionId = created.find("iframe").attr("id");
        })
        .catch((error) => {
          content.textContent = `The dialog could not be opened: ${error.message}`;
        });
    },
    close() {
      if (!dialog) return;
      if (dialog.extensionId) host.destroy(dialog.extensionId);
      dialog.backdrop.remove();
      dialog = null;
      // The page shows the macro as saved, as Confluence's editor does after an edit.
      if (macroSaved) location.reload();
    },
    isActiveDialog: (addonKey) => Boolean(dialog) && dialog.addonKey === addonKey,
    isButtonDisabled: (id) => Boolean(dialog?.buttons[id]?.disabled),
    setButtonDisabled: (id, disabled) => {
      if (dialog?.buttons[id]) dialog.buttons[id].disabled = disabled;
    },
    toggleButton: (id) => {
      if (dialog?.buttons[id]) dialog.buttons[id].disabled = !dialog.buttons[id].disabled;
    },
    isButtonHidden: (id) => Boolean(dialog?.buttons[id]?.hidden),
    setButtonHidden: (id, hidden) => {
      if (dialog?.buttons[id]) dialog.buttons[id].hidden = hidden;
    },
    createButton: (button) => {
      if (!dialog) return;
      const element = document.createElement("button");
      element.textContent = button.text;
      element.className = "button button-secondary";
      element.disabled = Boolean(button.disabled);
      element.onclick = button.onClick;
      dialog.buttons[button.identifier] = element;
      dialog.box.querySelector("footer")?.prepend(element);
    },
  };
  function closeDialog(addonKey, quiet) {
    if (!dialog) return;
    if (quiet) dialogProvider.close();
    else host.dialog.close(addonKey, {});
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && dialog) closeDialog(dialog.addonKey);
  });
  host.onIframeEstablished((data) => {
    // Like the product, the submit button is enabled once the dialog's add-on has loaded.
    if (data.extension.options?.isDialog && dialog?.buttons.submit) dialog.buttons.submit.disabled = false;
    document.body.dataset.bridge = "established";
  });

  // ---- flags ----
  const flagProvider = {
    create(options) {
      const flag = document.createElement("div");
      flag.className = `flag flag-${options.type}`;
      flag.setAttribute("role", "alert");
      const title = document.createElement("strong");
      title.textContent = options.title || "";
      const body = document.createElement("p");
      body.textContent = options.body || "";
      const close = document.createElement("button");
      close.className = "flag-close";
      close.setAttribute("aria-label", "Dismiss");
      close.textContent = "×";
      flag.append(title, close, body);
      for (const action of options.actions) {
        const link = document.createElement("button");
        link.className = "flag-action";
        link.textContent = action.actionText;
        link.onclick = action.executeAction;
        flag.append(link);
      }
      document.getElementById("flags").append(flag);
      const handle = {
        close() {
          if (!flag.isConnected) return;
          flag.remove();
          options.onClose(options.id);
        },
      };
      close.onclick = handle.close;
      if (options.close === "auto") setTimeout(handle.close, 5000);
      return handle;
    },
  };

  const adaptor = host.getFrameworkAdaptor();
  for (const [name, provider] of [
    ["dialog", dialogProvider],
    ["flag", flagProvider],
  ]) {
    adaptor.registerModule({ getModuleRegistrationName: () => name, isEnabled: () => true, getProvider: () => provider });
  }

  // ---- the page's add-on iframes ----
  window._AP = window._AP || {};
  window._AP.dialogModules = config.dialogs;
  for (const slot of document.querySelectorAll(".ac-slot")) {
    const spec = JSON.parse(slot.dataset.slot);
    const created = host.create({
      addon_key: spec.addonKey,
      key: spec.moduleKey,
      url: spec.url,
      options: { width: "100%", height: spec.options?.height || "400px", emulatorProduct: spec.product, ...(spec.options || {}) },
    });
    slot.append(created[0]);
  }
  // Confluence shows a macro's custom editor in a dialog with its title and Insert/Save and Close buttons.
  for (const button of document.querySelectorAll("[data-open-macro-editor]")) {
    button.addEventListener("click", () => {
      const spec = JSON.parse(button.dataset.openMacroEditor);
      const target = { addon_key: spec.addonKey, key: spec.moduleKey };
      // Only the editor's iframe hears its buttons: the macro's view on the page has the same module key.
      const editor = (registration) =>
        registration.extension_id === dialog?.extensionId ||
        (registration.extension?.addon_key === target.addon_key && registration.extension?.options?.isDialog === true);
      const clicked = (identifier, text) => () => {
        const data = { button: { identifier, name: identifier, text } };
        host.broadcastEvent(`dialog.${identifier}`, editor, data);
        host.broadcastEvent("dialog.button.click", editor, data);
      };
      dialogProvider.create(
        {
          chrome: true,
          header: spec.title,
          width: spec.width || "80%",
          height: spec.height || "60%",
          id: `macro-editor-${spec.macroId}`,
          actions: [
            { identifier: "submit", text: spec.submitText, type: "primary", disabled: true, onClick: clicked("submit", spec.submitText) },
            { identifier: "cancel", text: "Close", type: "link", onClick: clicked("cancel", "Close") },
          ],
        },
        { ...target, options: { emulatorProduct: "confluence", emulatorMacro: spec, customData: { emulatorContext: spec.context } } },
      );
    });
  }
})();
