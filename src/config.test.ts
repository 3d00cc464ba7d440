import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "./config";

describe("settings", () => {
  test("defaults need nothing set", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.appName).toBe("Mesa");
    expect(config.locale).toBe("es");
    expect(config.timezone).toBe("America/Lima");
    expect(config.currency).toBe("PEN");
    expect(config.dniLength).toBe(8);
    expect(config.appUrl).toBe("http://127.0.0.1:3000");
    expect(config.dbPath.endsWith("storage/mesa.sqlite")).toBe(true);
  });

  test.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["APP_LOCALE", "fr"],
    ["APP_TIMEZONE", "Mars/Olympus"],
    ["APP_CURRENCY", "soles"],
    ["APP_URL", "not a url"],
    ["SESSION_LIFETIME", "0"],
    ["LOG_REQUESTS", "maybe"],
    ["DNI_LENGTH", "8a"],
    ["DNI_LENGTH", "20"],
    ["MAIL_FROM_ADDRESS", "mesa.example.pe"],
    ["MAIL_FROM_ADDRESS", "mesa\u200b@mesa.example.pe"],
    ["MAIL_FROM_ADDRESS", "m\u0435sa@mesa.example.pe"],
  ])("a bad %s (%s) is refused with a message naming it", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid setting ${name}`));
  });

  test("values are read and normalised", () => {
    const config = loadConfig({
      PORT: "8080",
      APP_URL: "https://mesa.example.pe/",
      APP_LOCALE: "en",
      APP_CURRENCY: "usd",
      APP_NAME: "Mesa Sur",
    });
    expect(config.port).toBe(8080);
    expect(config.appUrl).toBe("https://mesa.example.pe");
    expect(config.locale).toBe("en");
    expect(config.currency).toBe("USD");
    expect(config.appName).toBe("Mesa Sur");
  });

  test("replication: a folder by default (off under NODE_ENV=test), a folder or S3 by REPLICA_URL, or off", () => {
    expect(loadConfig({ STORAGE_PATH: "/srv/mesa" }).replica).toMatchObject({
      type: "file",
      location: "/srv/mesa/replica",
      syncInterval: "1s",
      snapshotInterval: "6h",
      retention: "72h",
    });
    expect(loadConfig({ NODE_ENV: "test" }).replica).toBeNull();
    expect(loadConfig({ REPLICA_URL: "off" }).replica).toBeNull();
    expect(loadConfig({ REPLICA_URL: "file:///mnt/backup/mesa" }).replica).toMatchObject({
      type: "file",
      location: "/mnt/backup/mesa",
    });
    expect(
      loadConfig({
        REPLICA_URL: "s3://mesa-replicas/cusco/",
        REPLICA_ENDPOINT: "https://minio.example.pe",
        REPLICA_SYNC_INTERVAL: "500ms",
      }).replica,
    ).toMatchObject({
      type: "s3",
      location: "s3://mesa-replicas/cusco",
      endpoint: "https://minio.example.pe",
      syncInterval: "500ms",
    });
    for (const [name, value] of [
      ["REPLICA_URL", "ftp://host/x"],
      ["REPLICA_URL", "s3://"],
      ["REPLICA_ENDPOINT", "minio:9000"],
      ["REPLICA_SYNC_INTERVAL", "1 second"],
      ["REPLICA_RETENTION", "3d"],
    ])
      expect(() => loadConfig({ [name]: value })).toThrow(`Invalid setting ${name}`);
  });
});
