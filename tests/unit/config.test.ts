/**
 * The configuration's defaults are written once (SERVE_DEFAULTS): serve applies them and the help
 * prints them. The pipeline's environment variables are read in one place (pipelineSettings).
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { ConfigError, pipelineSettings, SERVE_DEFAULTS, serveConfig } from "../../src/platform/config";
import { commandSpec } from "../../src/platform/cli-spec";

describe("serve's defaults", () => {
  test("an empty command line and environment give SERVE_DEFAULTS", () => {
    const c = serveConfig({}, {});
    expect({
      port: c.port,
      host: c.host,
      shutdown: c.shutdownTimeoutS,
      drain: c.drainDelayS,
      log: c.logFormat,
      store: c.accountStore,
      advance: c.advanceMs,
      data: c.dataDir,
    }).toEqual({
      port: 8080,
      host: "127.0.0.1",
      shutdown: 30,
      drain: 5,
      log: "json",
      store: null,
      advance: null,
      data: resolve("./data"),
    });
    expect(SERVE_DEFAULTS.port).toBe(8080);
  });

  test("the help prints the defaults serve applies", () => {
    const options = new Map(commandSpec("serve")!.options.map((o) => [o.name, o.default]));
    expect(Object.fromEntries(["port", "host", "shutdown-timeout", "drain-delay", "log-format", "account-store", "data", "advance"].map((n) => [n, options.get(n)]))).toEqual({
      port: "8080",
      host: "127.0.0.1",
      "shutdown-timeout": "30",
      "drain-delay": "5",
      "log-format": "json",
      "account-store": "sqlite",
      data: "./data",
      advance: "off",
    });
  });

  test("--advance off, the default the help names, is accepted as off", () => {
    expect(serveConfig({ advance: "off" }, {}).advanceMs).toBeNull();
    expect(serveConfig({ advance: "90s" }, {}).advanceMs).toBe(90_000);
    expect(() => serveConfig({ advance: "soon" }, {})).toThrow(ConfigError);
  });
});

describe("pipelineSettings", () => {
  test("unset: undefined (the defaults by size) and the space check on", () => {
    expect(pipelineSettings({})).toEqual({ deriveWorkers: undefined, earlyLotIndexes: undefined, skipSpaceCheck: false });
  });

  test("each variable parsed", () => {
    expect(pipelineSettings({ ARTMARKET_DERIVE_WORKERS: "0", ARTMARKET_EARLY_LOT_INDEXES: "1", ARTMARKET_SKIP_SPACE_CHECK: "1" })).toEqual({
      deriveWorkers: 0,
      earlyLotIndexes: true,
      skipSpaceCheck: true,
    });
    expect(pipelineSettings({ ARTMARKET_DERIVE_WORKERS: "4", ARTMARKET_EARLY_LOT_INDEXES: "0" })).toMatchObject({ deriveWorkers: 4, earlyLotIndexes: false });
  });

  test("a bad value is a ConfigError naming the variable", () => {
    expect(() => pipelineSettings({ ARTMARKET_DERIVE_WORKERS: "two" })).toThrow(/ARTMARKET_DERIVE_WORKERS must be a whole number/);
    expect(() => pipelineSettings({ ARTMARKET_DERIVE_WORKERS: "-1" })).toThrow(ConfigError);
    expect(() => pipelineSettings({ ARTMARKET_EARLY_LOT_INDEXES: "yes" })).toThrow(/ARTMARKET_EARLY_LOT_INDEXES must be 0 or 1/);
  });
});
