/**
 * Redirect rules of the page protocol, applied to every response on its way out:
 * - a 302 after PUT, PATCH or DELETE becomes 303, so the browser follows it with GET;
 * - for page-protocol requests, a redirect to another origin becomes 409 + X-Inertia-Location (a full visit),
 *   and a redirect to a URL with a #fragment becomes 409 + X-Inertia-Redirect (XHR would drop the fragment).
 */
import { HEADER } from "./page";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function adaptRedirect(request: Request, response: Response): Response {
  if (!REDIRECTS.has(response.status)) return response;
  const location = response.headers.get("location");
  if (!location) return response;

  if (request.headers.has(HEADER.inertia)) {
    const requestUrl = new URL(request.url);
    const target = new URL(location, requestUrl);
    if (target.origin !== requestUrl.origin) return conflict(response, HEADER.location, target.href);
    if (target.hash) return conflict(response, HEADER.redirect, location);
  }

  if (response.status === 302 && ["PUT", "PATCH", "DELETE"].includes(request.method)) {
    const headers = new Headers(response.headers);
    return new Response(null, { status: 303, headers });
  }
  return response;
}

function conflict(response: Response, header: string, url: string): Response {
  const headers = new Headers(response.headers);
  headers.delete("location");
  headers.delete(HEADER.inertia);
  headers.set(header, url);
  return new Response(null, { status: 409, headers });
}

/** A full browser visit to `url`: 409 + X-Inertia-Location for page requests, a plain redirect otherwise. */
export function locationResponse(request: Request, url: string): Response {
  if (request.headers.has(HEADER.inertia))
    return new Response(null, { status: 409, headers: { [HEADER.location]: url } });
  return new Response(null, { status: 302, headers: { location: url } });
}
