/**
 * Prometheus metrics (prom-client), served at `/metrics` to whoever presents METRICS_TOKEN (docs/operations.md,
 * "Metrics"). Each Mesa process has its own registry; every figure is this process's. What they count:
 *
 * - `mesa_http_requests_total{route,method,status}` and `mesa_http_request_duration_seconds{route,method}`: by the
 *   route's name (never its path, which may hold a document);
 * - `mesa_sales_total` and `mesa_sales_voided_total` (sales per minute: `rate(mesa_sales_total[1m]) * 60`);
 * - `mesa_sale_group_commit_size`: how many sales shared one commit (src/db.ts, groupCommit);
 * - `mesa_jobs{state}`: background jobs queued and running;
 * - `mesa_realtime_connections`: open WebSockets of the embedded realtime server (absent with a hosted one);
 * - `mesa_replication_running` (1 on the one server that runs Litestream) and `mesa_replication_lag_seconds` (how
 *   far the replica trails the database, on that server; absent with replication off);
 * - the process's own (`process_*`, `nodejs_*` as Bun reports them).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export interface MetricSources {
  jobs: () => { queued: number; running: number };
  realtimeConnections: (() => number) | null;
  replication: (() => { running: boolean; lagSeconds: number | null }) | null;
}

export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<"route" | "method" | "status">;
  readonly requestSeconds: Histogram<"route" | "method">;
  readonly sales: Counter;
  readonly voids: Counter;
  readonly groupCommitSize: Histogram;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: "mesa_http_requests_total",
      help: "HTTP requests answered, by route name, method and status",
      labelNames: ["route", "method", "status"],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: "mesa_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route name and method",
      labelNames: ["route", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.sales = new Counter({ name: "mesa_sales_total", help: "Sales recorded", registers });
    this.voids = new Counter({ name: "mesa_sales_voided_total", help: "Sales voided", registers });
    this.groupCommitSize = new Histogram({
      name: "mesa_sale_group_commit_size",
      help: "Sales that shared one commit (group commit)",
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers,
    });
    new Gauge({
      name: "mesa_jobs",
      help: "Background jobs of this database, by state",
      labelNames: ["state"],
      registers,
      collect() {
        const { queued, running } = sources.jobs();
        this.set({ state: "queued" }, queued);
        this.set({ state: "running" }, running);
      },
    });
    const connections = sources.realtimeConnections;
    if (connections)
      new Gauge({
        name: "mesa_realtime_connections",
        help: "Open WebSocket connections of the embedded realtime server",
        registers,
        collect() {
          this.set(connections());
        },
      });
    const replication = sources.replication;
    if (replication) {
      new Gauge({
        name: "mesa_replication_running",
        help: "1 when this server runs Litestream, which replicates the database (one server per database does)",
        registers,
        collect() {
          this.set(replication().running ? 1 : 0);
        },
      });
      new Gauge({
        name: "mesa_replication_lag_seconds",
        help: "How far the replica trails the database's last write, in seconds (on the server that replicates)",
        registers,
        collect() {
          const { lagSeconds } = replication();
          if (lagSeconds === null) this.reset();
          else this.set(lagSeconds);
        },
      });
    }
  }

  /** Counts one answered request. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.requestSeconds.observe({ route, method }, seconds);
  }
}
