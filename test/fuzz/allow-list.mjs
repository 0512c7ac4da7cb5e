// Status differences from express@5 that the fuzzer accepts, each with its reason.
// Keep this list short: every entry is a place where switchyard is knowingly
// not identical to the oracle.

/** Each entry: a reason, and a predicate over (request, switchyard status, express status). */
export const ALLOWED = []

/** The reason a difference is allowed, or null. */
export function explain(req, ours, theirs) {
  for (const entry of ALLOWED) if (entry.test(req, ours, theirs)) return entry.reason
  return null
}
