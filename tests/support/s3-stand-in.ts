/**
 * A local stand-in for an S3-compatible service, on loopback, for the tests of replication to S3: the part of the
 * S3 REST protocol Litestream's client uses, path-style (`/bucket/key`, as REPLICA_ENDPOINT makes it ask), with the
 * objects in memory. It answers PUT, GET, HEAD and DELETE of an object, multipart uploads, the batch delete
 * (`POST /bucket?delete`), and bucket listings (version 1 and 2) with prefix, delimiter and paging. It checks that
 * each request is signed (AWS Signature V4) with the access key it was given; it does not recompute signatures.
 * Like S3, it stamps objects with their time to the second.
 */
import { createHash, randomUUID } from "node:crypto";

interface StoredObject {
  body: Uint8Array;
  modified: Date;
  etag: string;
}

export interface S3StandIn {
  endpoint: string;
  /** Keys of a bucket's objects. */
  keys(bucket: string): string[];
  stop(): void;
}

const xml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

function error(status: number, code: string, message: string): Response {
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`,
    { status, headers: { "content-type": "application/xml" } },
  );
}

const answer = (body: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>${body}`, { headers: { "content-type": "application/xml" } });

/** Starts the stand-in with `buckets`; only requests signed with `accessKeyId` are answered. */
export function startS3StandIn(buckets: string[], accessKeyId: string): S3StandIn {
  const store = new Map<string, Map<string, StoredObject>>(buckets.map((b) => [b, new Map()]));
  const uploads = new Map<string, { bucket: string; key: string; parts: Map<number, Uint8Array> }>();
  const stamp = () => new Date(Math.floor(Date.now() / 1000) * 1000);
  const put = (objects: Map<string, StoredObject>, key: string, body: Uint8Array) => {
    const etag = `"${createHash("md5").update(body).digest("hex")}"`;
    objects.set(key, { body, modified: stamp(), etag });
    return etag;
  };

  function list(bucket: string, objects: Map<string, StoredObject>, query: URLSearchParams): Response {
    const v2 = query.get("list-type") === "2";
    const prefix = query.get("prefix") ?? "";
    const delimiter = query.get("delimiter") ?? "";
    const max = Math.min(Number(query.get("max-keys") ?? 1000), 1000);
    const after = (v2 ? (query.get("continuation-token") ?? query.get("start-after")) : query.get("marker")) ?? "";
    const contents: string[] = [];
    const prefixes = new Set<string>();
    let truncated = false;
    let last = "";
    for (const key of [...objects.keys()].sort()) {
      if (!key.startsWith(prefix) || key <= after) continue;
      const rest = key.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      const entry = cut === -1 ? key : prefix + rest.slice(0, cut + delimiter.length);
      if (cut !== -1 && prefixes.has(entry)) continue;
      if (contents.length + prefixes.size >= max) {
        truncated = true;
        break;
      }
      last = key;
      if (cut !== -1) prefixes.add(entry);
      else {
        const o = objects.get(key)!;
        contents.push(
          `<Contents><Key>${xml(key)}</Key><LastModified>${o.modified.toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
        );
      }
    }
    const paging = v2
      ? `<KeyCount>${contents.length + prefixes.size}</KeyCount>${truncated ? `<NextContinuationToken>${xml(last)}</NextContinuationToken>` : ""}`
      : `<Marker>${xml(after)}</Marker>${truncated ? `<NextMarker>${xml(last)}</NextMarker>` : ""}`;
    return answer(
      `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix>${paging}<MaxKeys>${max}</MaxKeys>${delimiter ? `<Delimiter>${xml(delimiter)}</Delimiter>` : ""}<IsTruncated>${truncated}</IsTruncated>${contents.join("")}${[...prefixes].map((p) => `<CommonPrefixes><Prefix>${xml(p)}</Prefix></CommonPrefixes>`).join("")}</ListBucketResult>`,
    );
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      return handle(request);
    },
  });
  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const signed = request.headers.get("authorization") ?? "";
    if (!signed.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`))
      return error(403, "InvalidAccessKeyId", "The request is not signed with the stand-in's access key.");
    const [, bucket = "", ...path] = url.pathname.split("/");
    const key = decodeURIComponent(path.join("/"));
    const objects = store.get(bucket);
    if (!objects) return error(404, "NoSuchBucket", `No bucket ${bucket}.`);
    const query = url.searchParams;
    const method = request.method;

    if (key === "") {
      if (method === "GET" && query.has("location")) return answer("<LocationConstraint/>");
      if (method === "HEAD") return new Response(null);
      if (method === "GET") return list(bucket, objects, query);
      if (method === "POST" && query.has("delete")) {
        const body = await request.text();
        const deleted = [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) =>
          m[1].replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&amp;", "&"),
        );
        for (const k of deleted) objects.delete(k);
        return answer(
          `<DeleteResult>${deleted.map((k) => `<Deleted><Key>${xml(k)}</Key></Deleted>`).join("")}</DeleteResult>`,
        );
      }
      return error(405, "MethodNotAllowed", `${method} on a bucket is not served here.`);
    }

    if (method === "POST" && query.has("uploads")) {
      const id = randomUUID();
      uploads.set(id, { bucket, key, parts: new Map() });
      return answer(
        `<InitiateMultipartUploadResult><Bucket>${xml(bucket)}</Bucket><Key>${xml(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    const uploadId = query.get("uploadId");
    if (uploadId) {
      const upload = uploads.get(uploadId);
      if (!upload) return error(404, "NoSuchUpload", "No such upload.");
      if (method === "PUT") {
        const body = new Uint8Array(await request.arrayBuffer());
        upload.parts.set(Number(query.get("partNumber")), body);
        return new Response(null, { headers: { etag: `"${createHash("md5").update(body).digest("hex")}"` } });
      }
      if (method === "POST") {
        const parts = [...upload.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
        const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const part of parts) whole.set(part, (at += part.length) - part.length);
        const etag = put(objects, key, whole);
        uploads.delete(uploadId);
        return answer(
          `<CompleteMultipartUploadResult><Bucket>${xml(bucket)}</Bucket><Key>${xml(key)}</Key><ETag>${xml(etag)}</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (method === "DELETE") {
        uploads.delete(uploadId);
        return new Response(null, { status: 204 });
      }
    }

    const object = objects.get(key);
    if (method === "PUT") {
      const etag = put(objects, key, new Uint8Array(await request.arrayBuffer()));
      return new Response(null, { headers: { etag } });
    }
    if (method === "DELETE") {
      objects.delete(key);
      return new Response(null, { status: 204 });
    }
    if (method === "GET" || method === "HEAD") {
      if (!object) return error(404, "NoSuchKey", `No object ${key}.`);
      return new Response(method === "HEAD" ? null : new Blob([object.body as Uint8Array<ArrayBuffer>]), {
        headers: {
          etag: object.etag,
          "last-modified": object.modified.toUTCString(),
          "content-length": String(object.body.length),
          "content-type": "application/octet-stream",
        },
      });
    }
    return error(405, "MethodNotAllowed", `${method} is not served here.`);
  }
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    keys: (bucket) => [...(store.get(bucket)?.keys() ?? [])].sort(),
    stop: () => server.stop(true),
  };
}
