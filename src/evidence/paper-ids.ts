/**
 * The forms of paper identifiers, read the same way from a flag and from a page's citation_* meta tags:
 * each returns the identifier as stored, or null when the value is not one.
 */

/** A PMID: 1 to 10 digits, no leading zero (`pmid:` accepted). */
export function pmidForm(value: string): string | null {
  const v = value.trim().replace(/^pmid:/i, "");
  return /^[1-9][0-9]{0,9}$/.test(v) ? v : null;
}

/** A DOI: `10.` registrant `/` suffix (`doi:` and a doi.org URL accepted). */
export function doiForm(value: string): string | null {
  const v = value
    .trim()
    .replace(/^doi:/i, "")
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, "");
  return /^10\.[0-9]{4,9}\/\S+$/.test(v) ? v : null;
}

/** A PMCID: `PMC` and 1 to 10 digits (the prefix added when missing, `pmcid:` accepted). */
export function pmcidForm(value: string): string | null {
  const v = value
    .trim()
    .replace(/^pmcid:/i, "")
    .toUpperCase();
  const withPrefix = v.startsWith("PMC") ? v : `PMC${v}`;
  return /^PMC[0-9]{1,10}$/.test(withPrefix) ? withPrefix : null;
}
