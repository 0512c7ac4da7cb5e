import { METHODS } from 'node:http'

/** Every HTTP method Node.js knows, lower-cased (`get`, `post`, ..., `m-search`). */
export const methods: readonly string[] = METHODS.map((m) => m.toLowerCase())

const lower: Record<string, string> = Object.create(null)
for (const m of METHODS) lower[m] = m.toLowerCase()

/**
 * req.method lower-cased, without allocating for the known methods. GET and
 * POST are compared first: Node's parser gives the same internalized strings
 * every time, so each comparison is one pointer check, where the dictionary
 * is a hash lookup.
 */
export function lowerMethod(method: string): string {
  if (method === 'GET') return 'get'
  if (method === 'POST') return 'post'
  return lower[method] ?? method.toLowerCase()
}
