/**
 * A migration, once released, never changes: a market.db or account store that applied it records
 * its hash and refuses an edited one (src/db/migrate.ts), so an edit, even to a comment, would stop
 * every existing data directory from opening. Each released migration's SHA-256 is pinned here; a
 * new migration is added to the list when it is written.
 */
import { expect, test } from "bun:test";
import { accountMigrations, accountPgMigrations, marketMigrations } from "../../src/db/migrations/embedded";

const RELEASED: Record<string, Record<string, string>> = {
  market: {
    "0000_init": "44dfd56d1f0b9a647d2e665d9b1926c10df9610e23f92d1d674f49ef708811f0",
    "0001_compact_lots": "5dc28f4fc1c079a96fb8580f8784c5649133da19090b49ed91624672b06b6853",
    "0002_lean_artworks": "370989dac869cecd17e6fdabd9197f3039e5e4b533ec7fa2a90d864ea9f8f03c",
    "0003_one_artworks_table": "a168fa823bdbd212afb11218088736f9c580b0aad7d6b98b55d843e14ba0d135",
    "0004_lot_notes": "8076cabd3f0d023b1adefd92cd1a7c35467508774caf5d85faf2bedc94fdc3b0",
    "0005_default_artwork_uids": "ab40ff81e11ed7a46b1a0eb04722aa2c96e5f6a787718ef03c63772e3a4ec9ea",
    "0006_lot_usd_cents": "8d7d6c8d68f9e5980d23eb116e857b74c5e808754b1987d514e35ac79da480c1",
    "0007_artwork_integral_columns": "5bffdb8798b247224060c2af959642714ac65253e0abaec48328b32b9108ad8c",
    "0008_artwork_day_last_sold": "50302b49a7c291f77304990ba862452084091580a16dc5b8c6773c8018d05231",
    "0009_upcoming_forecasts": "c8b94c4e0a93bb03507195ea06cc5da5a53e8c058dd438d4c8c355fc9421b62f",
    "0010_derive_state": "e23f94bd75aebd85a03d9bbe9252ad716b02f108269bed80f4f83cf0559c2cbe",
    "0011_market_events": "01b2d3c10fac062e040de74c1b9839c30439e72bd1f32bcec2148715fba93324",
    "0012_estimate_history": "4ca9f301166f51978d9052072d3c1dca3b2729139a7218fab75af07544c4368f",
  },
  account: {
    "0000_init": "88bd8a745f49e34a0a94374035d34503ea65847c42667baa5a6fcb5792433081",
    "0001_follows_shares": "1417cbed5567b573e2917a24997e74dab522fb0c1b9053b1f500202fa3184911",
    "0002_lean_ledger": "23894a1226c913470c1133c1f0029f97f6f24d33a5c6167bb5d1704f998dd1db",
    "0003_collectables": "cbb8b16309b2c5f95405633ecfd0137882a5b7da17e81921dff084f661c7fd9d",
    "0004_account_epoch": "9d90330e1d6741331710e6eab1ed60b8246a313f86bf95004d413253f55dbd6c",
    "0005_account_area": "77d42bd83b35cbc4191a8bfe57a4d292d08fbbeec9bf31a9e3c254d2eb6bd6cf",
    "0006_key_usage": "e136c5cfdbf1ff4fd5c3fdfcc0ceac872d2e0050a7d309ff02ed6074b6ad9316",
    "0007_webhooks": "99a7b8a33f50454206903da7be60d8d5ee3317bf4168599516793e39abd4453c",
    "0008_notifications": "53484e1d58e1fac59ca66fba4a4cf77499bb3689a9381b179842f96d92e767aa",
  },
  "account-pg": {
    "0000_init": "c7951beadea6d8a72327bad9dee36546c0e0860b9e64b209b536810cb7a76c65",
    "0001_account_epoch": "ca123d3c8524a59498f9c81800edc969ee5fca1b15842c296341ad64675bab9f",
    "0002_unlogged_rate_windows": "86d4845484a21055697074633539e2f3a4efd7f1e63fecacd4060c9f438a15f5",
    "0003_batch_functions": "e9d4efc2a36cee6ad71b4cfcc9040ac0a092fdcbed47ac804b0c683b0978c4d6",
    "0004_follows_notify": "56f837bb5ea11ffe7caf023b53b67c67e0d4e8b1ca1d312ce92a426caa1e20d0",
    "0005_cap_admit": "24f63225a7e58ecdd21aaa5072fa889901875de5f627604ed5d991d3655c510e",
    "0006_account_area": "c7a6f57d4143c18ea775a6d119acc1d5376b6dc6afc8354cd4d8c938b53226d2",
    "0007_key_usage": "ac566ebc76e4a1afe22d870caf5ff71d06ed922758409dfb8119d229609fb8c2",
    "0008_webhooks": "330fe98174b0ab2eb656d54e2e5927948a34e49ef51cf0f063b288fbb84cb3f1",
    "0009_notifications": "c2efc53b841a77d29340d093aa5e4b3866da6481e49a74bdf12c5997fcba9bfc",
    "0010_rate_lease": "9520663fe1d71c80bc1b70d27955572dda3d1e5a083781f85e3807166c3b632a",
    "0011_ledger_commit_set": "90ff6b3ecb2fbfe6e303b01433c28ffc4f376dc2571346eac3ca4ba2491e5057",
    "0012_du_totals": "93e86246ce364bf8d235715e556c7eb0e8706c786be3b52c119e1a22a2eb79f4",
    "0013_ledger_totals_by_key": "0407327914dcfbd7cfcc3b8e12185f87fb99b8df7179a33eeb34187b820dddec",
    "0014_ledger_lines_by_set": "b8a2b360ee3b78f1e375836279e6a9d4ba2939d9caac798653c606f26f171953",
  },
};

const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

test("every released migration is byte for byte what was released, and each set is the pinned list in order", () => {
  for (const [set, list] of [
    ["market", marketMigrations],
    ["account", accountMigrations],
    ["account-pg", accountPgMigrations],
  ] as const) {
    const pinned = Object.keys(RELEASED[set]!);
    // a new migration goes on the end of its set (and into RELEASED); nothing is removed or reordered
    expect({ set, tags: list.map((m) => m.tag).slice(0, pinned.length) }).toEqual({ set, tags: pinned });
    for (const m of list) {
      expect({ set, tag: m.tag, sha256: sha256(m.sql) }).toEqual({ set, tag: m.tag, sha256: RELEASED[set]![m.tag] ?? "(not pinned: add it to RELEASED)" });
    }
  }
});
