/**
 * Whether a bound file is the work its bibliography entry names, offline: the entry's title (its
 * letters and digits, case and accents folded) printed on the file's first two pages (a flow source:
 * its title, first headings and first paragraphs) or held in a PDF's metadata title, and a DOI the entry gives agreeing with one
 * printed there. Either disagreeing is `differs`; a title too short to
 * tell, or pages with too little text to read it from (a scan), is `unknown` for that test.
 */
import { doiForm } from "../evidence/paper-ids.js";
import { skeletonText } from "../text/fold.js";
import type { BibEntry } from "./bibliography.js";

export const IDENTITIES = ["matches", "differs", "unknown"] as const;
export type Identity = (typeof IDENTITIES)[number];
export type IdentityCheck = Identity | "absent";

export interface IdentityResult {
  identity: Identity;
  /** The title test: absent when the entry gives no title. */
  title: IdentityCheck;
  /** The DOI test: absent when the entry gives no DOI; unknown when the pages print none. */
  doi: IdentityCheck;
  detail: string;
}

/** Shorter titles (letters and digits) are found on many first pages: they tell nothing. */
const MIN_TITLE_CHARS = 8;
/** First pages with fewer letters and digits than this are taken as unread (a scan). */
const MIN_PAGE_CHARS = 200;
const DOI_IN_TEXT = /\b10\.\d{4,9}\/[^\s"<>]+/gu;

/**
 * `front`: a PDF's first two pages, or a flow source's title and opening text; `metadataTitle`: a
 * PDF's title from its metadata. A metadata title that lacks the entry's never makes it differ (it
 * is often a file name or a template's): the pages decide then.
 */
export function identityOf(entry: BibEntry, front: string, metadataTitle?: string): IdentityResult {
  const pages = skeletonText(front);
  const inMetadata = metadataHolds(entry.title, metadataTitle);
  const title = inMetadata ? "matches" : titleCheck(entry.title, pages);
  const doi = doiCheck(entry.doi, front);
  const checks = [title, doi];
  const identity: Identity = checks.includes("differs")
    ? "differs"
    : checks.includes("matches")
      ? "matches"
      : "unknown";
  const said: string[] = [];
  if (title !== "absent")
    said.push(
      inMetadata
        ? "title in its metadata"
        : `title ${title === "matches" ? "printed" : title === "differs" ? "not printed" : "not told"} on its first pages`,
    );
  if (doi !== "absent")
    said.push(
      `DOI ${doi === "matches" ? "agrees" : doi === "differs" ? "differs from the one printed" : "not printed"}`,
    );
  return {
    identity,
    title,
    doi,
    detail: said.length > 0 ? said.join("; ") : "the entry gives no title and no DOI",
  };
}

/** Whether the metadata title holds the entry's title (letters and digits, folded; long enough to tell). */
function metadataHolds(title: string | null, metadataTitle: string | undefined): boolean {
  if (title === null || metadataTitle === undefined) return false;
  const wanted = skeletonText(title);
  return wanted.length >= MIN_TITLE_CHARS && skeletonText(metadataTitle).includes(wanted);
}

function titleCheck(title: string | null, pages: string): IdentityCheck {
  if (title === null) return "absent";
  const wanted = skeletonText(title);
  if (wanted.length < MIN_TITLE_CHARS) return "unknown";
  if (pages.includes(wanted)) return "matches";
  return pages.length < MIN_PAGE_CHARS ? "unknown" : "differs";
}

function doiCheck(doi: string | null, text: string): IdentityCheck {
  const wanted = doi ? doiForm(doi)?.toLowerCase() : undefined;
  if (!wanted) return "absent";
  const printed = [...text.matchAll(DOI_IN_TEXT)].map((m) => m[0].replace(/[.,;:)\]}]+$/u, "").toLowerCase());
  if (printed.length === 0) return "unknown";
  return printed.includes(wanted) ? "matches" : "differs";
}
