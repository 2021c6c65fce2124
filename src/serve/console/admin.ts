// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * #/admin, for admins (the nav shows it to a session whose user is one; the API answers 403 to
 * anyone else): the users (make one and hand over its set-password link; change a plan or a role;
 * disable, enable; reset a password), every user's consumption of the period with the allowance
 * notices, and the audit log, newest first, page by page. docs/accounts.md#admin.
 */
import { account, problemText } from "./api";
import { h, int, main } from "./ui";

interface AdminUser {
  id: number;
  email: string | null;
  name: string;
  role: "member" | "admin";
  plan: string;
  disabled: boolean;
  has_password: boolean;
}
interface WithLink {
  user: AdminUser;
  set_password_url: string | null;
  set_password_expires_at: string | null;
}
interface AuditItem {
  id: number;
  at: string;
  actor_user_id: number | null;
  via: string;
  action: string;
  target_kind: string | null;
  target_id: number | null;
  address: string | null;
  detail: Record<string, unknown>;
}

/** A set-password link to hand to its user, once. */
function linkBox(email: string | null, r: WithLink): HTMLElement {
  return h(
    "div",
    { id: "set-password-link", class: "note", role: "status" },
    h("p", {}, `Send ${email ?? "the user"} this link: it sets their password once, until ${r.set_password_expires_at?.slice(0, 16).replace("T", " ")} UTC.`),
    h("pre", {}, r.set_password_url),
  );
}

export async function adminPage(): Promise<void> {
  const message = h("p", { id: "admin-message", role: "status" });
  const shown = h("div", { id: "admin-shown" });
  const users = h("tbody", { id: "admin-users" });
  const usage = h("tbody", { id: "admin-usage" });
  const notices = h("ul", { id: "admin-notices" });
  const audit = h("tbody", { id: "admin-audit" });
  const more = h("button", { type: "button", id: "audit-more", hidden: true }, "Older entries");
  let plans: string[] = [];
  try {
    plans = (await account<{ slug: string }[]>("GET", "/v1/plans", undefined, { withKey: true })).map((p) => p.slug);
  } catch {}

  const change = async (id: number, body: object) => {
    try {
      const r = await account<WithLink>("PATCH", `/v1/admin/users/${id}`, body);
      shown.replaceChildren(r.set_password_url ? linkBox(r.user.email, r) : h("p", { role: "status" }, `Saved: ${r.user.email ?? r.user.name}.`));
    } catch (error) {
      message.textContent = problemText(error);
    }
    await load();
  };

  const row = (u: AdminUser) =>
    h(
      "tr",
      { "data-user-id": u.id, "data-email": u.email ?? "" },
      h("td", {}, u.email ?? "(keys only)"),
      h("td", {}, u.name),
      h(
        "td",
        {},
        h(
          "select",
          { class: "plan", "aria-label": `plan of ${u.email ?? u.name}`, onchange: (e: Event) => change(u.id, { plan: (e.target as HTMLSelectElement).value }) },
          plans.map((p) => h("option", { value: p, selected: p === u.plan }, p)),
        ),
      ),
      h("td", { class: "role" }, u.role),
      h("td", { class: "status" }, u.disabled ? "disabled" : u.email === null ? "keys only" : u.has_password ? "active" : "no password yet"),
      h(
        "td",
        {},
        h(
          "button",
          { type: "button", class: "toggle-role", onclick: () => change(u.id, { role: u.role === "admin" ? "member" : "admin" }) },
          u.role === "admin" ? "Make member" : "Make admin",
        ),
        " ",
        h("button", { type: "button", class: "toggle-disabled", onclick: () => change(u.id, { disabled: !u.disabled }) }, u.disabled ? "Enable" : "Disable"),
        " ",
        u.email ? h("button", { type: "button", class: "reset-password", onclick: () => change(u.id, { reset_password: true }) }, "Reset password") : null,
      ),
    );

  let auditCursor: string | null = null;
  const auditRows = (items: AuditItem[]) =>
    items.map((a) =>
      h(
        "tr",
        { "data-action": a.action },
        h("td", {}, a.at.slice(0, 19).replace("T", " ")),
        h("td", {}, a.action),
        h("td", {}, a.actor_user_id === null ? a.via : `user ${a.actor_user_id} (${a.via})`),
        h("td", {}, a.target_kind ? `${a.target_kind} ${a.target_id}` : ""),
        h("td", {}, a.address ?? ""),
        h("td", { class: "sub" }, JSON.stringify(a.detail)),
      ),
    );
  more.onclick = async () => {
    const page = await account<{ items: AuditItem[]; next_cursor: string | null }>("GET", `/v1/admin/audit?limit=50&cursor=${auditCursor}`);
    audit.append(...auditRows(page.items));
    auditCursor = page.next_cursor;
    more.hidden = auditCursor === null;
  };

  const load = async () => {
    try {
      const all: AdminUser[] = [];
      for (let cursor: string | null = null; ; ) {
        const page: { items: AdminUser[]; next_cursor: string | null } = await account("GET", `/v1/admin/users?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
        all.push(...page.items);
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      users.replaceChildren(...all.map(row));
      const u = await account<{
        items: { user_id: number; email: string | null; name: string; plan: string; du_consumed: number; du_limit: number; period_end: string }[];
        notices: { user_name: string; threshold: number; pool: string; period_start: string }[];
      }>("GET", "/v1/admin/usage");
      usage.replaceChildren(
        ...u.items.map((i) =>
          h(
            "tr",
            { "data-user-id": i.user_id },
            h("td", {}, i.email ?? i.name),
            h("td", {}, i.plan),
            h("td", { class: "num" }, int(i.du_consumed)),
            h("td", { class: "num" }, int(i.du_limit)),
            h("td", {}, i.period_end),
          ),
        ),
      );
      notices.replaceChildren(...u.notices.map((n) => h("li", {}, `${n.user_name} reached ${n.threshold} % of the ${n.pool} pool in the period from ${n.period_start}`)));
      const page = await account<{ items: AuditItem[]; next_cursor: string | null }>("GET", "/v1/admin/audit?limit=50");
      audit.replaceChildren(...auditRows(page.items));
      auditCursor = page.next_cursor;
      more.hidden = auditCursor === null;
    } catch (error) {
      message.textContent = problemText(error);
    }
  };

  const email = h("input", { id: "new-user-email", type: "email", required: true });
  const plan = h(
    "select",
    { id: "new-user-plan" },
    plans.map((p) => h("option", { value: p }, p)),
  );
  const role = h("select", { id: "new-user-role" }, h("option", { value: "member" }, "member"), h("option", { value: "admin" }, "admin"));
  const form = h(
    "form",
    {
      id: "new-user",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        try {
          const r = await account<WithLink>("POST", "/v1/admin/users", { email: email.value.trim(), plan: plan.value, role: role.value });
          shown.replaceChildren(linkBox(r.user.email, r));
          email.value = "";
        } catch (error) {
          message.textContent = problemText(error);
        }
        await load();
      },
    },
    h("label", {}, "Email ", email),
    h("label", {}, " Plan ", plan),
    h("label", {}, " Role ", role),
    " ",
    h("button", { type: "submit" }, "Make user"),
  );
  const table = (id: string, heads: string[], body: HTMLElement) =>
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid", id },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            heads.map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        body,
      ),
    );
  main().replaceChildren(
    h("h1", {}, "Admin"),
    message,
    h("h2", {}, "Users"),
    form,
    shown,
    table("admin-users-table", ["Email", "Name", "Plan", "Role", "Status", ""], users),
    h("h2", {}, "Usage this period"),
    table("admin-usage-table", ["User", "Plan", "DU used", "Allowance", "Period ends"], usage),
    notices,
    h("h2", {}, "Audit log"),
    table("admin-audit-table", ["When (UTC)", "What", "Who", "On", "From", "Detail"], audit),
    more,
  );
  await load();
}
