// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * #/keys: the signed-in user's API keys (GET /v1/keys): make one (name, scope, expiry) and see its
 * secret once; rotate one (the new secret once, the old key's last moment); revoke one. With a
 * session the writes carry its CSRF token; with a key alone, the key (a full one) manages its
 * user's keys. docs/accounts.md.
 */
import { account, type NewKey, type OwnKey, problemText, session } from "./api";
import { h, main } from "./ui";

const when = (iso: string | null) => (iso === null ? "never" : iso.replace("T", " ").slice(0, 16) + " UTC");

/** The secret of a key just made, shown once, with a button that copies it. */
function secretBox(made: NewKey): HTMLElement {
  return h(
    "div",
    { id: "new-key", class: "note", role: "status" },
    h("p", {}, h("b", {}, `Key “${made.name}” (${made.scope}). `), "Copy it now: it is shown only once, and only its hash is kept."),
    h("pre", { id: "new-key-secret" }, made.key),
    made.old_key_expires_at ? h("p", { id: "old-key-until" }, `The old key keeps working until ${when(made.old_key_expires_at)}, then stops.`) : null,
  );
}

export async function keysPage(): Promise<void> {
  const list = h("tbody", { id: "keys-rows" });
  const shown = h("div", { id: "key-shown" });
  const message = h("p", { id: "keys-message", role: "status" });
  const refresh = async () => {
    try {
      const { items } = await account<{ items: OwnKey[] }>("GET", "/v1/keys");
      list.replaceChildren(
        ...items.map((k) =>
          h(
            "tr",
            { "data-key-id": k.id, "data-status": k.status },
            h("td", {}, k.name),
            h("td", {}, h("code", {}, `am_${k.kid}_…`)),
            h("td", {}, k.scope),
            h("td", {}, k.status),
            h("td", {}, when(k.created_at)),
            h("td", {}, when(k.expires_at)),
            h(
              "td",
              {},
              k.status === "active"
                ? [
                    h("button", { type: "button", class: "rotate", onclick: () => act(`/v1/keys/${k.id}/rotate`, "POST") }, "Rotate"),
                    " ",
                    h("button", { type: "button", class: "revoke", onclick: () => act(`/v1/keys/${k.id}`, "DELETE") }, "Revoke"),
                  ]
                : null,
            ),
          ),
        ),
      );
    } catch (error) {
      message.textContent = problemText(error);
    }
  };
  const act = async (path: string, method: string) => {
    try {
      const made = await account<NewKey | null>(method, path);
      shown.replaceChildren(made ? secretBox(made) : h("p", { role: "status" }, "Revoked: the key is refused from its next call."));
    } catch (error) {
      message.textContent = problemText(error);
    }
    await refresh();
  };
  const name = h("input", { id: "key-name", required: true, maxlength: 100, placeholder: "what uses it" });
  const scope = h("select", { id: "key-scope" }, h("option", { value: "full" }, "full"), h("option", { value: "read" }, "read (GET only)"));
  const expires = h("input", { id: "key-expires", type: "date" });
  const form = h(
    "form",
    {
      id: "key-create",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const body: Record<string, string> = { name: name.value.trim(), scope: scope.value };
        if (expires.value) body.expires_at = `${expires.value}T23:59:59Z`;
        try {
          shown.replaceChildren(secretBox(await account<NewKey>("POST", "/v1/keys", body)));
          name.value = "";
        } catch (error) {
          message.textContent = problemText(error);
        }
        await refresh();
      },
    },
    h("label", {}, "Name ", name),
    h("label", {}, " Scope ", scope),
    h("label", {}, " Expires ", expires),
    " ",
    h("button", { type: "submit" }, "Make a key"),
  );
  const who = session.get();
  main().replaceChildren(
    h("h1", {}, "API keys"),
    h("p", {}, who?.email ? `Signed in as ${who.email}. ` : "", "Every key of yours draws on your plan's one Data Unit pool. A read key makes GET calls only."),
    form,
    shown,
    message,
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid", id: "keys" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["Name", "Key", "Scope", "Status", "Made", "Expires", ""].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        list,
      ),
    ),
  );
  await refresh();
}
