import { METHODS } from 'node:http'

/** Every HTTP method Node.js knows, lower-cased (`get`, `post`, ..., `m-search`). */
export const methods: readonly string[] = METHODS.map((m) => m.toLowerCase())

const lower: Record<string, string> = Object.create(null)
for (const m of METHODS) lower[m] = m.toLowerCase()

/** req.method lower-cased, without allocating for the known methods. */
export function lowerMethod(method: string): string {
  return lower[method] ?? method.toLowerCase()
}
