/**
 * The real Mesa process (`bun src/server.ts`) on loopback, for tests that start, stop or kill it: a free port, the
 * process with its output gathered, and the headers of a signed-in client's JSON requests to it.
 */
import { join } from "node:path";
import type { Subprocess } from "bun";
import { TEST_APP_KEY, type Client } from "./app";

const ROOT = join(import.meta.dir, "..", "..");

/** A port nobody listens on now. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(null) });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

export interface MesaProcess {
  child: Subprocess<"ignore", "pipe", "pipe">;
  origin: string;
  /** Everything it printed so far, both streams. */
  output: () => string;
  exited: Promise<number>;
}

/** Starts `bun src/server.ts` on `dbPath`; resolves once it says it runs, or once it exits. */
export async function startMesa(dbPath: string, port: number, env: Record<string, string> = {}): Promise<MesaProcess> {
  const child = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      APP_KEY: TEST_APP_KEY,
      DB_PATH: dbPath,
      STORAGE_PATH: join(dbPath, "..", "storage"),
      LOG_REQUESTS: "false",
      // Its start-up and recovery lines are info and warn lines of its log.
      LOG_LEVEL: "info",
      MAIL_MAILER: "file",
      DEMO_DATA: "false",
      ...env,
    },
  });
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      output += decoder.decode(chunk.value);
  };
  void drain(child.stdout);
  void drain(child.stderr);
  const started = { child, origin: `http://127.0.0.1:${port}`, output: () => output, exited: child.exited };
  const deadline = Date.now() + 15_000;
  let ended = false;
  void child.exited.then(() => (ended = true));
  while (!ended && !output.includes("Mesa is running at") && Date.now() < deadline) await Bun.sleep(20);
  return started;
}

export const headersOf = (client: Client) => ({
  accept: "application/json",
  "content-type": "application/json",
  cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "),
  "x-xsrf-token": client.cookies.get("XSRF-TOKEN")!,
});
