import { describe, expect, test } from "bun:test";
import { loadConfig } from "./config";
import { goDurationSeconds, litestreamConfig, replicatingProcess } from "./replication";

describe("Litestream's configuration and output", () => {
  test("a folder replica: its path and intervals, every value quoted", () => {
    const { replica } = loadConfig({ REPLICA_URL: '/mnt/réplica "mesa"', REPLICA_SYNC_INTERVAL: "250ms" });
    expect(litestreamConfig("/srv/mesa/mesa.sqlite", replica!)).toBe(
      [
        "dbs:",
        '  - path: "/srv/mesa/mesa.sqlite"',
        "    replicas:",
        '      - name: "replica"',
        '        type: "file"',
        '        path: "/mnt/réplica \\"mesa\\""',
        '        sync-interval: "250ms"',
        '        snapshot-interval: "6h"',
        '        retention: "72h"',
        "",
      ].join("\n"),
    );
  });

  test("an S3-compatible replica: its URL, endpoint (path style) and region, and never a credential", () => {
    const { replica } = loadConfig({
      REPLICA_URL: "s3://mesa-replicas/cusco",
      REPLICA_ENDPOINT: "https://minio.example.pe",
      REPLICA_REGION: "us-east-1",
      LITESTREAM_SECRET_ACCESS_KEY: "very-secret",
    });
    const yaml = litestreamConfig("/srv/mesa/mesa.sqlite", replica!);
    expect(yaml).toContain('        url: "s3://mesa-replicas/cusco"\n        endpoint: "https://minio.example.pe"');
    expect(yaml).toContain("force-path-style: true");
    expect(yaml).toContain('region: "us-east-1"');
    expect(yaml).not.toContain("very-secret");
  });

  test("Go durations as Litestream prints them", () => {
    expect(goDurationSeconds("-6ms")).toBeCloseTo(-0.006);
    expect(goDurationSeconds("4s")).toBe(4);
    expect(goDurationSeconds("1.5s")).toBe(1.5);
    expect(goDurationSeconds("2m3.25s")).toBe(123.25);
    expect(goDurationSeconds("1h0m0s")).toBe(3600);
  });

  test("of the live servers, the one that started first replicates (ties by id)", () => {
    const server = (id: string, startedAt: string) => ({
      id,
      pid: 1,
      hostname: "h",
      address: "a",
      startedAt: new Date(startedAt),
      seenAt: new Date(),
    });
    expect(replicatingProcess([server("b", "2026-12-01T10:00:05Z"), server("a", "2026-12-01T10:00:09Z")])?.id).toBe(
      "b",
    );
    expect(replicatingProcess([server("b", "2026-12-01T10:00:05Z"), server("a", "2026-12-01T10:00:05Z")])?.id).toBe(
      "a",
    );
    expect(replicatingProcess([])).toBeNull();
  });
});
