import { Type as t } from "@sinclair/typebox";

const dateTime = (description?: string) => t.String({ format: "date-time", ...(description && { description }) });
const nullableDateTime = (description?: string) => t.Union([dateTime(), t.Null()], description ? { description } : {});

export const AccountUser = t.Object(
  {
    id: t.Integer(),
    email: t.Union([t.String(), t.Null()], { description: "null for a user made by `artmarket keys create` (keys only, no sign-in)" }),
    name: t.String(),
    role: t.Union([t.Literal("member"), t.Literal("admin")]),
    plan: t.String(),
    created_at: dateTime(),
    disabled: t.Boolean(),
    disabled_at: nullableDateTime(),
    has_password: t.Boolean({ description: "whether the user can sign in with a password (set through a set-password link)" }),
  },
  { $id: "AccountUser" },
);

export const SignInBody = t.Object(
  {
    email: t.String({ minLength: 3, maxLength: 254 }),
    password: t.String({ minLength: 1, maxLength: 1024 }),
  },
  { $id: "SignInBody", additionalProperties: false },
);

export const SessionResponse = t.Object(
  {
    user: AccountUser,
    csrf_token: t.String({ description: "send it in X-CSRF-Token with every POST, PATCH, PUT and DELETE made with this session" }),
    expires_at: dateTime("the session's absolute end; it also ends after 2 hours without a call"),
  },
  { $id: "SessionResponse" },
);

export const SetPasswordBody = t.Object(
  {
    token: t.String({ minLength: 1, maxLength: 100, description: "the token of a set-password link" }),
    password: t.String({ minLength: 12, maxLength: 1024 }),
  },
  { $id: "SetPasswordBody", additionalProperties: false },
);

const scope = t.Union([t.Literal("full"), t.Literal("read")], { description: "full, or read: GET and HEAD calls only" });

export const KeyItem = t.Object(
  {
    id: t.Integer(),
    name: t.String(),
    kid: t.String({ description: "the key's public id: the part after am_ and before the secret" }),
    scope,
    status: t.Union([t.Literal("active"), t.Literal("expired"), t.Literal("revoked")]),
    created_at: dateTime(),
    expires_at: nullableDateTime(),
    revoked_at: nullableDateTime(),
  },
  { $id: "KeyItem" },
);

export const KeyList = t.Object({ items: t.Array(KeyItem) }, { $id: "KeyList" });

export const CreateKeyBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100 }),
    scope,
    expires_at: t.Optional(dateTime("when the key stops working; in the future, at most 5 years ahead")),
  },
  { $id: "CreateKeyBody", additionalProperties: false },
);

const createdKeyFields = {
  ...KeyItem.properties,
  key: t.String({ description: "the key, shown only in this answer: only a hash is stored" }),
};

export const CreatedKey = t.Object(createdKeyFields, { $id: "CreatedKey" });

export const RotatedKey = t.Object(
  {
    ...createdKeyFields,
    old_key_id: t.Integer(),
    old_key_expires_at: dateTime("the old key keeps working until then (24 hours, or its own earlier expiry), then stops"),
  },
  { $id: "RotatedKey" },
);

export const UserList = t.Object({ items: t.Array(AccountUser), next_cursor: t.Union([t.String(), t.Null()]) }, { $id: "UserList" });

const role = t.Union([t.Literal("member"), t.Literal("admin")]);

export const CreateUserBody = t.Object(
  {
    email: t.String({ minLength: 3, maxLength: 254 }),
    plan: t.String({ minLength: 1, maxLength: 100 }),
    role: t.Optional(role),
    name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  },
  { $id: "CreateUserBody", additionalProperties: false },
);

export const UserWithLink = t.Object(
  {
    user: AccountUser,
    set_password_url: t.Union([t.String(), t.Null()], { description: "a one-time link that sets the user's password (72 hours); null when none was made" }),
    set_password_expires_at: nullableDateTime(),
  },
  { $id: "UserWithLink" },
);

export const PatchUserBody = t.Object(
  {
    plan: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    role: t.Optional(role),
    disabled: t.Optional(t.Boolean({ description: "true: every key and session of the user is refused at once, on every node" })),
    reset_password: t.Optional(t.Boolean({ description: "true: the password is cleared, the user's sessions end, and a new set-password link is answered" })),
  },
  { $id: "PatchUserBody", additionalProperties: false },
);

export const AdminUsageItem = t.Object(
  {
    user_id: t.Integer(),
    email: t.Union([t.String(), t.Null()]),
    name: t.String(),
    plan: t.String(),
    disabled: t.Boolean(),
    period_start: t.String({ format: "date" }),
    period_end: t.String({ format: "date" }),
    du_limit: t.Number(),
    du_consumed: t.Number({ description: "in the current period" }),
    du_remaining: t.Number(),
  },
  { $id: "AdminUsageItem" },
);

export const AdminNotice = t.Object(
  {
    id: t.Integer(),
    user_id: t.Integer(),
    user_name: t.String(),
    plan: t.String(),
    pool: t.String(),
    threshold: t.Integer(),
    period_start: t.String({ format: "date" }),
    period_end: t.String({ format: "date" }),
    du_limit: t.Number(),
    du_consumed: t.Number(),
    projected_eop: t.Number(),
    created_at: dateTime(),
  },
  { $id: "AdminNotice" },
);

export const AdminUsage = t.Object({ items: t.Array(AdminUsageItem), notices: t.Array(AdminNotice) }, { $id: "AdminUsage" });

export const AuditItem = t.Object(
  {
    id: t.Integer(),
    at: dateTime(),
    actor_user_id: t.Union([t.Integer(), t.Null()]),
    actor_key_id: t.Union([t.Integer(), t.Null()]),
    via: t.Union([t.Literal("session"), t.Literal("key"), t.Literal("cli")]),
    action: t.String(),
    target_kind: t.Union([t.String(), t.Null()]),
    target_id: t.Union([t.Integer(), t.Null()]),
    address: t.Union([t.String(), t.Null()]),
    detail: t.Record(t.String(), t.Unknown()),
  },
  { $id: "AuditItem" },
);

export const AuditPage = t.Object({ items: t.Array(AuditItem), next_cursor: t.Union([t.String(), t.Null()]) }, { $id: "AuditPage" });

export const SignInMethods = t.Object(
  {
    password: t.Boolean({ description: "email and password (POST /v1/session)" }),
    oidc: t.Boolean({ description: "single sign-on through the company's OpenID Connect provider" }),
    oidc_url: t.Union([t.String(), t.Null()], { description: "where a browser goes to sign in through the provider (a navigation, not an API call); null without single sign-on" }),
  },
  { $id: "SignInMethods" },
);
