/**
 * Retrieving bytes over HTTP(S) under limits: a size cap enforced while the body streams in (after
 * decompression too), a redirect cap with loop detection, and one deadline that covers the whole
 * transfer, redirects included. Every failure is a coded CiteproofError.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { CiteproofError } from "../errors.js";
import { isPrivateAddress, publicOnlyLookup } from "./address.js";
import { sha256Hex } from "./file.js";

export const DEFAULT_FETCH_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
export const DEFAULT_FETCH_MAX_REDIRECTS = 5;

export interface FetchOptions {
  /** Largest body accepted, in bytes (after decompression). */
  maxBytes?: number;
  /** Deadline for the whole transfer, redirects included, in milliseconds. */
  timeoutMs?: number;
  /** Redirects followed before giving up. */
  maxRedirects?: number;
  /** Value of the Accept header. */
  accept?: string;
  /**
   * "refuse": a URL (or a redirect) whose host is or resolves to a loopback, private or link-local
   * address is refused before anything is sent (an agent's URL on a server). Default "allow".
   */
  privateAddresses?: "allow" | "refuse";
}

export interface FetchedBytes {
  /** The URL asked for. */
  url: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  /** Every URL redirected to, in order. */
  redirects: string[];
  status: number;
  /** The media type of Content-Type, lower case, without parameters; null when absent. */
  mediaType: string | null;
  /** The charset parameter of Content-Type, lower case; null when absent. */
  charset: string | null;
  bytes: Uint8Array;
  sha256: string;
}

/** Parses and checks a URL: http or https only, no credentials in it. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CiteproofError("URL_INVALID", `${JSON.stringify(raw)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CiteproofError("URL_INVALID", `${raw} uses ${url.protocol} (only http and https are fetched)`);
  }
  if (url.username || url.password) {
    throw new CiteproofError("URL_INVALID", `${raw} carries credentials; they are never sent`);
  }
  return url;
}

/** Fetches a URL's body with GET, following redirects, within the limits. */
export async function fetchBytes(raw: string, options: FetchOptions = {}): Promise<FetchedBytes> {
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_FETCH_MAX_REDIRECTS;
  let current = parseHttpUrl(raw);
  const redirects: string[] = [];
  const seen = new Set([current.href]);
  const deadline = Date.now() + timeoutMs;

  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw timeoutError(raw, timeoutMs);
    const refuse = options.privateAddresses === "refuse";
    if (refuse && isIP(current.hostname.replace(/^\[|\]$/g, "")) && isPrivateAddress(current.hostname))
      throw privateRefused(current);
    const response = await getOnce(current, remaining, maxBytes, options.accept, raw, timeoutMs, refuse);
    if (response.kind === "redirect") {
      let next: URL;
      try {
        next = parseHttpUrl(new URL(response.location, current).href);
      } catch (error) {
        if (error instanceof CiteproofError) {
          throw new CiteproofError("URL_INVALID", `${raw} redirects to an unusable URL: ${error.message}`);
        }
        throw error;
      }
      if (seen.has(next.href)) {
        throw new CiteproofError(
          "URL_TOO_MANY_REDIRECTS",
          `${raw} redirects in a loop (back to ${next.href})`,
          {
            redirects: [...redirects, next.href],
          },
        );
      }
      if (redirects.length >= maxRedirects) {
        throw new CiteproofError(
          "URL_TOO_MANY_REDIRECTS",
          `${raw} redirects more than ${maxRedirects} times`,
          { redirects: [...redirects, next.href], option: "max_redirects", limit: maxRedirects },
        );
      }
      redirects.push(next.href);
      seen.add(next.href);
      current = next;
      continue;
    }
    return {
      url: raw,
      finalUrl: current.href,
      redirects,
      status: response.status,
      mediaType: response.mediaType,
      charset: response.charset,
      bytes: response.bytes,
      sha256: sha256Hex(response.bytes),
    };
  }
}

type Once =
  | { kind: "redirect"; location: string }
  | { kind: "body"; status: number; mediaType: string | null; charset: string | null; bytes: Uint8Array };

function getOnce(
  url: URL,
  remainingMs: number,
  maxBytes: number,
  accept: string | undefined,
  asked: string,
  timeoutMs: number,
  refusePrivate: boolean,
): Promise<Once> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, {
      method: "GET",
      agent: false,
      ...(refusePrivate ? { lookup: publicOnlyLookup } : {}),
      headers: {
        accept: accept ?? "*/*",
        "accept-encoding": "gzip, deflate, br",
        "user-agent": "citeproof/0.1",
      },
    });
    const finish = (error: CiteproofError | undefined, value?: Once) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        req.destroy();
        reject(error);
      } else {
        resolve(value!);
      }
    };
    const timer = setTimeout(() => finish(timeoutError(asked, timeoutMs)), remainingMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPRIVATE") return finish(privateRefused(url));
      finish(
        new CiteproofError(
          "URL_FETCH_FAILED",
          `${url.href} could not be retrieved (${error.code ?? error.message})`,
        ),
      );
    });
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location) {
        res.resume();
        finish(undefined, { kind: "redirect", location });
        return;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        finish(
          new CiteproofError("URL_HTTP_ERROR", `${url.href} answered HTTP ${status}`, {
            status,
            url: url.href,
          }),
        );
        return;
      }
      const declared = Number(res.headers["content-length"]);
      const encoding = (res.headers["content-encoding"] ?? "identity").toString().trim().toLowerCase();
      if (encoding === "identity" && Number.isFinite(declared) && declared > maxBytes) {
        res.resume();
        finish(tooLarge(url.href, maxBytes, declared));
        return;
      }
      let body: NodeJS.ReadableStream = res;
      let decoder: Transform | undefined;
      if (encoding === "gzip" || encoding === "x-gzip") decoder = createGunzip();
      else if (encoding === "deflate") decoder = createInflate();
      else if (encoding === "br") decoder = createBrotliDecompress();
      else if (encoding !== "identity") {
        res.resume();
        finish(
          new CiteproofError(
            "URL_FETCH_FAILED",
            `${url.href} sent an unsupported content encoding (${encoding})`,
          ),
        );
        return;
      }
      let wire = 0;
      if (decoder) {
        res.on("data", (chunk: Buffer) => {
          wire += chunk.length;
          if (wire > maxBytes) finish(tooLarge(url.href, maxBytes));
        });
        res.on("error", () =>
          finish(new CiteproofError("URL_FETCH_FAILED", `${url.href}: the transfer broke off`)),
        );
        decoder.on("error", () =>
          finish(new CiteproofError("URL_FETCH_FAILED", `${url.href}: the compressed body is damaged`)),
        );
        body = res.pipe(decoder);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      body.on("data", (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > maxBytes) {
          decoder?.destroy();
          finish(tooLarge(url.href, maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      body.on("error", () =>
        finish(new CiteproofError("URL_FETCH_FAILED", `${url.href}: the transfer broke off`)),
      );
      res.on("aborted", () =>
        finish(new CiteproofError("URL_FETCH_FAILED", `${url.href}: the transfer broke off`)),
      );
      body.on("end", () => {
        if (!res.complete) {
          finish(new CiteproofError("URL_FETCH_FAILED", `${url.href}: the transfer broke off`));
          return;
        }
        const { mediaType, charset } = parseContentType(res.headers["content-type"]);
        const joined = Buffer.concat(chunks);
        finish(undefined, {
          kind: "body",
          status,
          mediaType,
          charset,
          bytes: new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength),
        });
      });
    });
    req.end();
  });
}

export function parseContentType(header: string | undefined): {
  mediaType: string | null;
  charset: string | null;
} {
  if (!header) return { mediaType: null, charset: null };
  const [type, ...params] = header.split(";");
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(param);
    if (match) charset = match[1].toLowerCase();
  }
  const mediaType = type.trim().toLowerCase();
  return { mediaType: mediaType.length > 0 ? mediaType : null, charset };
}

/** Nothing of the host is told (no status, no error of its own): only that it was not tried. */
function privateRefused(url: URL): CiteproofError {
  return new CiteproofError(
    "ACCESS_DENIED",
    `${url.href} was not fetched: its host is a loopback, private or link-local address`,
    {
      option: "allow_private_urls",
      hint: "a tool call reaches one only when the server allows it with {option}",
    },
  );
}

function timeoutError(url: string, timeoutMs: number): CiteproofError {
  return new CiteproofError("URL_TIMEOUT", `${url} did not finish within ${timeoutMs} ms`, {
    option: "timeout_ms",
    limit: timeoutMs,
  });
}

function tooLarge(url: string, maxBytes: number, declared?: number): CiteproofError {
  const size = declared !== undefined ? ` (${declared} bytes declared)` : "";
  return new CiteproofError("URL_TOO_LARGE", `${url} is over the limit of ${maxBytes} bytes${size}`, {
    option: "max_bytes",
    limit: maxBytes,
  });
}
