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
});
